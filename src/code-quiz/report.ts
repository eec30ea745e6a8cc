import type { Database } from '../db/database.js';
import { ActivityRepository } from './activity.repository.js';
import { ClassesRepository } from './classes.repository.js';
import { ProblemsRepository } from './problems.repository.js';

/**
 * The code quiz's part of a child's report: the problems of the child's classes, which are
 * solved (a run passed every stored test), and how many hints and runs it took.
 */
export async function codeReport(db: Database, childId: string) {
  const classIds = await new ClassesRepository(db).classIdsOfChild(childId);
  const problems = await new ProblemsRepository(db).listByClasses(classIds);
  const progress = await new ActivityRepository(db).childProgress(childId);
  const rows = problems.map((p) => {
    const done = progress.get(p.problem_id);
    return { problem_id: p.problem_id, title: p.title, language: p.language, solved: done?.solved ?? false, hints_used: done?.hints ?? 0, runs: done?.runs ?? 0, last_activity: done?.last_activity ?? null };
  });
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + f(r), 0);
  return {
    problems: rows.length,
    solved: rows.filter((r) => r.solved).length,
    hints_used: sum((r) => r.hints_used),
    runs: sum((r) => r.runs),
    by_problem: rows,
  };
}
