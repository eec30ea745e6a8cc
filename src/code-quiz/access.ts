import { assertChildAccess } from '../accounts/access.js';
import type { Database } from '../db/database.js';
import { forbidden, notFound } from '../http/errors.js';
import type { Auth } from '../http/session.js';
import type { Caller } from './activity.repository.js';
import { ClassesRepository, type CodeClass } from './classes.repository.js';
import { ProblemsRepository, type Problem } from './problems.repository.js';

/**
 * Who may do what in the code quiz. Admin: everything. Expert: their own classes, the problems
 * in them and their own children. Child session: the problems of the classes the picked
 * profile is enrolled in (a tablet that has not picked a profile yet is refused: the work
 * must belong to one child).
 */

export function callerOf(auth: Auth): Caller {
  switch (auth.role) {
    case 'admin':
      return { role: 'admin', childId: null, expertId: null };
    case 'expert':
      return { role: 'expert', childId: null, expertId: auth.expertId };
    case 'child':
      if (!auth.childId) throw forbidden('Pick who is coding first.', 'no_child_selected');
      return { role: 'child', childId: auth.childId, expertId: null };
    default:
      throw forbidden();
  }
}

/** A class the caller manages (its expert, or the admin): 404 unknown, 403 another expert's. */
export async function assertOwnClass(db: Database, auth: Auth, classId: number): Promise<CodeClass> {
  const c = await new ClassesRepository(db).get(classId);
  if (!c) throw notFound(`Class ${classId} was not found.`, 'class_not_found');
  if (auth.role === 'admin') return c;
  if (auth.role === 'expert' && c.expert_id === auth.expertId) return c;
  throw forbidden('This class belongs to another teacher.', 'class_not_yours');
}

/** A problem the caller manages (the expert of its class, or the admin). */
export async function assertOwnProblem(db: Database, auth: Auth, problemId: number): Promise<{ problem: Problem; cls: CodeClass }> {
  const problem = await new ProblemsRepository(db).get(problemId);
  if (!problem) throw notFound(`Problem ${problemId} was not found.`, 'problem_not_found');
  return { problem, cls: await assertOwnClass(db, auth, problem.class_id) };
}

/**
 * A problem the caller may work on: the managing expert or admin, or a child enrolled in its
 * class (403 otherwise, also for a child of another family).
 */
export async function assertProblemForWork(db: Database, auth: Auth, problemId: number): Promise<{ problem: Problem; cls: CodeClass; caller: Caller }> {
  const caller = callerOf(auth);
  const problem = await new ProblemsRepository(db).get(problemId);
  if (!problem) throw notFound(`Problem ${problemId} was not found.`, 'problem_not_found');
  const classes = new ClassesRepository(db);
  if (caller.role === 'child') {
    const cls = (await classes.get(problem.class_id))!;
    // the picked profile must still be this family's active child (relinked or deactivated since);
    await assertChildAccess(db, auth, caller.childId!);
    if (!(await classes.isEnrolled(problem.class_id, caller.childId!))) {
      throw forbidden('This problem is for another class.', 'not_enrolled');
    }
    return { problem, cls, caller };
  }
  return { problem, cls: await assertOwnClass(db, auth, problem.class_id), caller };
}
