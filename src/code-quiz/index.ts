import type { AppContext } from '../context.js';
import { createProviders } from '../ai/providers.js';
import { createCodeRunner } from '../code-runner/index.js';
import { registerActivityRoutes } from './activity.routes.js';
import { registerClassRoutes } from './classes.routes.js';
import { registerCodePages } from './code.pages.js';
import { registerDemoClass } from './demo.js';
import { registerProblemRoutes } from './problems.routes.js';
import { registerWorkRoutes } from './work.routes.js';

/**
 * The code quiz (issue #15): classes and enrolment, problems checked in the sandbox, the
 * contract's POST /suggest and POST /run, what the class did, and the pages. See docs/code-quiz.md.
 */
export function registerCodeQuiz(ctx: AppContext): void {
  const runner = createCodeRunner(ctx.config, ctx.logger);
  ctx.onClose(() => runner.close());
  // SDK clients are created on first use: with no key, /suggest stays offline
  const providers = createProviders(ctx.config, ctx.logger);
  registerClassRoutes(ctx);
  registerProblemRoutes(ctx, runner);
  registerWorkRoutes(ctx, { runner, providers, perMinute: ctx.config.CODE_CALLS_PER_MINUTE });
  registerActivityRoutes(ctx);
  registerCodePages(ctx);
  registerDemoClass(ctx, runner);
}
