import type { Request } from 'express';
import type { z } from 'zod';
import { AppError, badRequest } from './errors.js';

export type ValidationStyle = 'default' | 'fastapi';

interface Schemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  validationStyle?: ValidationStyle;
  bodyType?: 'json' | 'form' | 'multipart';
}

/**
 * Parses body, query and path parameters with their zod schemas. Failures become a 400 whose
 * message names every bad field in words a person understands, or, for routes that keep the
 * legacy contract, a 422 with `detail: [{loc, msg, type}]`.
 */
export function parseInput(schemas: Schemas, req: Request): { body: unknown; query: unknown; params: unknown } {
  const issues: { loc: (string | number)[]; msg: string; type: string }[] = [];
  const take = (where: 'body' | 'query' | 'path', schema: z.ZodType | undefined, value: unknown) => {
    if (!schema) return undefined;
    const r = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
    if (r.success) return r.data;
    for (const i of r.error.issues) {
      issues.push({ loc: [where, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], msg: i.message, type: i.code });
    }
    return undefined;
  };
  // A form sent with no fields at all arrives as no body: validate it as an empty form, so the
  // answer names each missing field (as it does for a form with some fields missing).
  const isForm = schemas.bodyType === 'form' || schemas.bodyType === 'multipart';
  const body = take('body', schemas.body, isForm ? (req.body ?? {}) : req.body);
  const query = take('query', schemas.query, req.query);
  const params = take('path', schemas.params, req.params);
  if (issues.length > 0) {
    if (schemas.validationStyle === 'fastapi') {
      throw new AppError(422, 'validation_error', 'The request is not valid.', issues);
    }
    const words = issues.map((i) => `${describeLoc(i.loc)}: ${i.msg}`);
    throw badRequest(`Invalid request. ${words.join('; ')}.`, issues, 'validation_error');
  }
  return { body, query, params };
}

function describeLoc(loc: (string | number)[]): string {
  const [where, ...rest] = loc;
  if (rest.length === 0) return where === 'body' ? 'request body' : String(where);
  const name = rest.join('.');
  return where === 'path' ? `path parameter ${name}` : where === 'query' ? `query parameter ${name}` : name;
}
