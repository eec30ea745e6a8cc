import type { AppContext } from '../context.js';
import type { CodeRunner } from '../code-runner/types.js';
import { assertChildAccess } from '../accounts/access.js';
import { assertOwnClass, assertOwnProblem, assertProblemForWork } from './access.js';
import { ActivityRepository } from './activity.repository.js';
import { ClassesRepository } from './classes.repository.js';
import { classParams, learnerChildParams, problemBody, problemParams } from './code-quiz.schema.js';
import { ProblemsRepository } from './problems.repository.js';
import { createProblem, expertProblemView, learnerProblemView, updateProblem } from './problems.service.js';
import { assertRunnerReady } from './test-runner.js';

/** Problems: the expert's editor routes and the child's read-only view. */
export function registerProblemRoutes(ctx: AppContext, runner: CodeRunner): void {
  const { api, db } = ctx;
  const log = ctx.logger.child({ module: 'code-quiz' });
  const problems = new ProblemsRepository(db);
  const classes = new ClassesRepository(db);
  const activity = new ActivityRepository(db);
  const saveErrors = {
    400: 'invalid problem, or its reference solution fails one of its tests (the message names it)',
    403: "another expert's class",
    404: 'unknown class or problem',
    503: 'the sandbox is not available (the message names the package to install)',
  };

  api.route(
    {
      method: 'post',
      path: '/api/expert/classes/{class_id}/problems',
      summary: 'Write a problem; its reference solution is run against its tests first',
      tags: ['Code quiz'],
      access: ['expert', 'admin'],
      params: classParams,
      body: problemBody,
      errors: saveErrors,
    },
    async ({ params, body, auth }) => {
      const cls = await assertOwnClass(db, auth, params.class_id);
      await assertRunnerReady(runner);
      return { success: true, problem: expertProblemView(await createProblem(problems, runner, cls, body, log)) };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/expert/classes/{class_id}/problems',
      summary: "A class's problems, with solutions and every test",
      tags: ['Code quiz'],
      access: ['expert', 'admin'],
      params: classParams,
      errors: { 403: "another expert's class", 404: 'unknown class' },
    },
    async ({ params, auth }) => {
      await assertOwnClass(db, auth, params.class_id);
      return { success: true, problems: (await problems.listByClasses([params.class_id])).map(expertProblemView) };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/expert/problems/{problem_id}',
      summary: 'One problem, with its solution, every test and the proven wrong lines',
      tags: ['Code quiz'],
      access: ['expert', 'admin'],
      params: problemParams,
      errors: { 403: "another expert's problem", 404: 'unknown problem' },
    },
    async ({ params, auth }) => ({ success: true, problem: expertProblemView((await assertOwnProblem(db, auth, params.problem_id)).problem) }),
  );

  api.route(
    {
      method: 'put',
      path: '/api/expert/problems/{problem_id}',
      summary: 'Replace a problem (checked in the sandbox like a new one)',
      tags: ['Code quiz'],
      access: ['expert', 'admin'],
      params: problemParams,
      body: problemBody,
      errors: saveErrors,
    },
    async ({ params, body, auth }) => {
      const { problem } = await assertOwnProblem(db, auth, params.problem_id);
      await assertRunnerReady(runner);
      return { success: true, problem: expertProblemView(await updateProblem(problems, runner, problem, body, log)) };
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/api/expert/problems/{problem_id}',
      summary: 'Delete a problem with its hints asked and runs',
      tags: ['Code quiz'],
      access: ['expert', 'admin'],
      params: problemParams,
      errors: { 403: "another expert's problem", 404: 'unknown problem' },
    },
    async ({ params, auth }) => {
      await assertOwnProblem(db, auth, params.problem_id);
      await problems.delete(params.problem_id);
      return { success: true, deleted: params.problem_id };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/learners/children/{child_id}/problems',
      summary: "The problems of a child's classes, with the child's progress",
      tags: ['Code quiz'],
      access: ['admin', 'expert', 'child'],
      params: learnerChildParams,
      errors: { 403: "another family's child", 404: 'unknown child' },
    },
    async ({ params, auth }) => {
      await assertChildAccess(db, auth, params.child_id);
      const classIds = await classes.classIdsOfChild(params.child_id);
      const names = new Map<number, string>();
      for (const id of classIds) names.set(id, (await classes.get(id))!.name);
      const progress = await activity.childProgress(params.child_id);
      const list = (await problems.listByClasses(classIds)).map((p) => learnerProblemView(p, names.get(p.class_id)!, progress.get(p.problem_id)));
      return {
        success: true,
        child_id: params.child_id,
        classes: classIds.map((id) => ({ class_id: id, name: names.get(id)! })),
        problems: list,
        solved: list.filter((p) => p.progress.solved).length,
      };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/learners/problems/{problem_id}',
      summary: 'One problem as a child sees it (no solution, hidden tests only counted)',
      tags: ['Code quiz'],
      access: ['admin', 'expert', 'child'],
      params: problemParams,
      errors: { 403: 'not enrolled in its class', 404: 'unknown problem' },
    },
    async ({ params, auth }) => {
      const { problem, cls, caller } = await assertProblemForWork(db, auth, params.problem_id);
      const progress = caller.childId ? (await activity.childProgress(caller.childId)).get(problem.problem_id) : undefined;
      return { success: true, problem: learnerProblemView(problem, cls.name, progress) };
    },
  );
}
