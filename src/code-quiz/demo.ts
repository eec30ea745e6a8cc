import type { AppContext } from '../context.js';
import type { CodeRunner } from '../code-runner/types.js';
import { ExpertsRepository } from '../accounts/experts.repository.js';
import { ClassesRepository } from './classes.repository.js';
import type { ProblemInput } from './code-quiz.schema.js';
import { ProblemsRepository } from './problems.repository.js';
import { checkedProblemFields } from './problems.service.js';

/** The demo family's first coding puzzle: short enough for a first go, with a loop to get wrong. */
export const DEMO_PROBLEM: ProblemInput = {
  title: 'Count up',
  prompt: 'Read a number n and print the numbers from 1 to n, one on each line.',
  language: 'python',
  starter_code: 'n = int(input())\n',
  solution: 'n = int(input())\nfor i in range(1, n + 1):\n    print(i)\n',
  tests: [
    { stdin: '3\n', expected_stdout: '1\n2\n3\n', hidden: false },
    { stdin: '1\n', expected_stdout: '1\n', hidden: false },
    { stdin: '5\n', expected_stdout: '1\n2\n3\n4\n5\n', hidden: true },
  ],
};

/**
 * With DEMO_SEED, the demo expert gets a class with their children and one checked problem, once,
 * so a child can do a problem end to end right after `npm start`. It runs in the background (the
 * sandbox check takes a few seconds) and is retried at the next start when the sandbox is missing.
 */
export function registerDemoClass(ctx: AppContext, runner: CodeRunner): void {
  if (!ctx.config.DEMO_SEED) return;
  const { db } = ctx;
  const log = ctx.logger.child({ module: 'code-quiz' });
  let pending: Promise<void> | undefined;
  /** not made yet, and the demo expert exists (an admin may have deleted it) */
  const wanted = async (): Promise<boolean> => !(await new ClassesRepository(db).demoClassMade()) && (await new ExpertsRepository(db).get('demo')) !== undefined;
  ctx.onStart(async () => {
    if (!(await wanted())) return;
    pending = (async () => {
      const health = await runner.health();
      if (!health.ok) return log.warn({ error_code: health.code }, 'demo coding class not created: the sandbox is unavailable');
      const fields = await checkedProblemFields(runner, DEMO_PROBLEM, log);
      // checked again: the sandbox check took seconds
      if (!(await wanted())) return;
      await db.transaction(async (tx) => {
        const classes = new ClassesRepository(tx);
        if (await classes.demoClassMade()) return;
        const cls = await classes.create('demo', 'Demo coding club', 'A first coding puzzle for the demo family.');
        await classes.enrolActiveChildrenOf(cls.class_id, 'demo');
        await new ProblemsRepository(tx).create(cls.class_id, fields);
        await classes.markDemoClass(cls.class_id);
        log.info({ class_id: cls.class_id }, 'demo coding class created');
      });
    })().catch((err) => log.warn({ err }, 'demo coding class not created'));
  });
  // the check must not write to a closed database
  ctx.onClose(() => pending);
}
