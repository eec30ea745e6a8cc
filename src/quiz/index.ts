import type { AppContext } from '../context.js';
import { createProviders } from '../ai/providers.js';
import { registerAttemptRoutes } from './attempts.routes.js';
import { registerGradingRoutes } from './grading.routes.js';
import { registerReportRoutes } from './report.routes.js';

/**
 * The quiz feature: answer grading (offline, with an optional AI judge for borderline answers),
 * quiz attempts and checkpoints, reports, and the player's config. See docs/quiz.md.
 */
export function registerQuiz(ctx: AppContext): void {
  // Clients are created on first use only: with no key, judge() is null and grading is offline.
  const providers = createProviders(ctx.config, ctx.logger);
  registerGradingRoutes(ctx, () => providers.judge());
  registerAttemptRoutes(ctx);
  registerReportRoutes(ctx);
}
