import { z } from 'zod';
import type { RegisteredRoute } from '../http/api.js';

export const CONTRACT_VERSION = '0.2.0';

const toSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Record<string, unknown>;

const errorBody = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    message: { type: 'string' },
    error: { type: 'string' },
    detail: { type: 'object', additionalProperties: true },
  },
  additionalProperties: true,
};

/**
 * The OpenAPI 3.0.3 document, generated from the same route definitions and zod schemas that
 * the routes validate with, so it cannot drift from the code.
 */
export function buildOpenApi(routes: RegisteredRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const parameters: unknown[] = [];
    for (const [where, schema] of [['path', r.params], ['query', r.query]] as const) {
      if (!schema) continue;
      const json = toSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, s] of Object.entries(json.properties ?? {})) {
        parameters.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: s });
      }
    }
    const responses: Record<string, unknown> = {
      200: {
        description: 'Success',
        content: { [r.produces ?? 'application/json']: { schema: r.response ? toSchema(r.response, 'output') : { type: 'object', additionalProperties: true } } },
      },
    };
    if (r.accepted) responses[202] = { description: r.accepted.description, content: { 'application/json': { schema: toSchema(r.accepted.schema, 'output') } } };
    if (r.access !== 'public') {
      responses[401] = { description: 'Not logged in', content: { 'application/json': { schema: errorBody } } };
      if (r.access !== 'authenticated') responses[403] = { description: `Allowed roles: ${r.access.join(', ')}`, content: { 'application/json': { schema: errorBody } } };
    }
    if (r.body || r.query || r.params) {
      responses[r.validationStyle === 'fastapi' ? 422 : 400] = { description: 'Invalid request', content: { 'application/json': { schema: errorBody } } };
    }
    for (const [status, description] of Object.entries(r.errors ?? {})) {
      responses[status] = { description, content: { 'application/json': { schema: errorBody } } };
    }
    const op: Record<string, unknown> = {
      summary: r.summary,
      tags: r.tags,
      'x-access': r.access,
      parameters,
      responses,
    };
    if (r.body) {
      // form routes take both encodings of the same fields (see bodyType in src/http/api.ts)
      const media = r.bodyType === 'form' ? ['application/x-www-form-urlencoded', 'multipart/form-data'] : r.bodyType === 'multipart' ? ['multipart/form-data'] : ['application/json'];
      const schema = toSchema(r.body, 'input');
      op.requestBody = { required: true, content: Object.fromEntries(media.map((m) => [m, { schema }])) };
    }
    (paths[r.path] ??= {})[r.method] = op;
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Interactive Video Comprehension Service',
      version: CONTRACT_VERSION,
      description: 'Session cookies (kvq.sid). x-access lists the roles allowed on each operation.',
    },
    paths,
  };
}
