import type { AppContext } from '../context.js';
import { createProviders } from '../ai/providers.js';
import { registerGenerationSocket } from './generation.ws.js';
import { registerAiRoutes } from './ai.routes.js';
import { registerReviewRoutes } from './review.routes.js';

/** Questions: live generation over WebSocket, review routes, companion variants, final questions. */
export function registerQuestions(ctx: AppContext): void {
  const providers = createProviders(ctx.config, ctx.logger);
  registerGenerationSocket(ctx, providers);
  registerReviewRoutes(ctx);
  registerAiRoutes(ctx, providers);
}
