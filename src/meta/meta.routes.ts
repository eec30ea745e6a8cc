import type { AppContext } from '../context.js';
import { buildOpenApi } from './openapi.js';
import { pingDatabase } from './health.repository.js';

/** Health and the OpenAPI document. The document is built lazily, after every feature has registered. */
export function registerMeta(ctx: AppContext): void {
  let doc: Record<string, unknown> | undefined;
  ctx.api.route(
    { method: 'get', path: '/api/openapi.json', summary: 'This OpenAPI 3.0.3 document', tags: ['Meta'], access: 'public' },
    () => (doc ??= buildOpenApi(ctx.api.routes)),
  );
  ctx.api.route({ method: 'get', path: '/health', summary: 'Liveness and database check', tags: ['Meta'], access: 'public' }, async () => {
    await pingDatabase(ctx.db);
    return { success: true, status: 'ok' };
  });
}
