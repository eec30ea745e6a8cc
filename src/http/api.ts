import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import multer from 'multer';
import type { z } from 'zod';
import { forbidden, unauthorized } from './errors.js';
import { parseInput, type ValidationStyle } from './validate.js';
import { currentAuth, type Auth, type Role } from './session.js';

export type Access = 'public' | 'authenticated' | readonly Role[];
export type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

export interface RouteDef<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> {
  method: Method;
  /** OpenAPI-style path: /api/admin/experts/{expert_id} */
  path: string;
  summary: string;
  tags: string[];
  /** who may call it: checked before anything else (401 when not logged in, 403 for another role) */
  access: Access;
  body?: B;
  /**
   * how the body arrives. 'form' routes accept form-urlencoded AND multipart/form-data (fields
   * only, what a browser's `new FormData()` sends) with the same fields and validation; the
   * route layer parses both. 'multipart' routes (files) parse it in `middleware` (multer).
   */
  bodyType?: 'json' | 'form' | 'multipart';
  query?: Q;
  params?: P;
  /** documented 200 body (for the OpenAPI document only) */
  response?: z.ZodType;
  /** documented 202 body of a route that can answer before its work is done (`Prefer: respond-async`) */
  accepted?: { description: string; schema: z.ZodType };
  /** documented error statuses, e.g. { 404: 'video not found' } */
  errors?: Record<number, string>;
  /** runs after the access check and before validation (uploads, rate limits) */
  middleware?: RequestHandler[];
  validationStyle?: ValidationStyle;
  /** 'json' (default) or another media type for documentation, e.g. 'text/html' */
  produces?: string;
}

export interface Input<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  auth: Auth;
}

export type Handler<B, Q, P> = (input: Input<B, Q, P>, req: Request, res: Response) => unknown;

export interface RegisteredRoute extends RouteDef<z.ZodType, z.ZodType, z.ZodType> {
  expressPath: string;
}

/**
 * The service's route table. Every API route goes through `route()`, which records the
 * definition (for /api/openapi.json and the README's access matrix) and mounts a handler
 * that checks access, validates with the same zod schemas, and sends the returned value as JSON.
 */
export class Api {
  readonly router: Router = express.Router();
  readonly routes: RegisteredRoute[] = [];
  /**
   * One router per literal prefix (`/api/final-questions`, `/api/expert`, ...), found by a Map
   * lookup of the request's prefix in one dispatching layer: a request walks neither the page
   * routes nor every API route in registration order, nor a list of ~30 mounted prefixes
   * (measured in bench/api.ts: the router's walk was about a tenth of a logged-in call's CPU;
   * one layer per prefix still cost a path match each). Two routes in different groups can never
   * match the same URL, so grouping keeps which route answers a request; within a group, order
   * is registration order as before. Groups hold their routes' full paths and are called
   * directly (not mounted), so req.baseUrl and req.route are what they were on one router.
   */
  private readonly groups = new Map<string, Router>();
  private dispatching = false;

  route<B extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined, P extends z.ZodType = z.ZodUndefined>(
    def: RouteDef<B, Q, P>,
    handler: Handler<z.output<B>, z.output<Q>, z.output<P>>,
  ): void {
    const expressPath = def.path.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, ':$1');
    this.routes.push({ ...(def as unknown as RouteDef<z.ZodType, z.ZodType, z.ZodType>), expressPath });
    const guard: RequestHandler = (req, res, next) => {
      // for the request log: req.route only holds the path inside the group's router
      res.locals.route = expressPath;
      checkAccess(def.access, currentAuth(req));
      next();
    };
    const main: RequestHandler = async (req, res) => {
      const input = parseInput(def, req) as Omit<Input<z.output<B>, z.output<Q>, z.output<P>>, 'auth'>;
      const result = await handler({ ...input, auth: currentAuth(req) }, req, res);
      if (!res.headersSent && result !== undefined) res.json(result);
    };
    const parsers = def.bodyType === 'form' ? [formFields] : [];
    const { router, path } = this.routerFor(expressPath);
    router[def.method](path, guard, ...parsers, ...(def.middleware ?? []), main);
  }

  /** The group router for a path starting with `/api/<literal>`; else the main router. */
  private routerFor(expressPath: string): { router: Router; path: string } {
    const prefix = groupKey(expressPath);
    if (prefix === undefined || prefix.includes(':')) return { router: this.router, path: expressPath };
    let group = this.groups.get(prefix);
    if (!group) {
      group = express.Router();
      this.groups.set(prefix, group);
    }
    if (!this.dispatching) {
      // where the first group was mounted before: the only routes outside groups are not under /api/
      this.dispatching = true;
      this.router.use((req, res, next) => {
        const key = groupKey(req.path);
        const found = key === undefined ? undefined : this.groups.get(key);
        if (found) found(req, res, next);
        else next();
      });
    }
    return { router: group, path: expressPath };
  }
}

/**
 * `/api/<first segment>` of a path, lower-cased (Express matches paths case-insensitively), or
 * undefined for a path outside /api/.
 */
function groupKey(path: string): string | undefined {
  if (!path.startsWith('/api/') && !path.toLowerCase().startsWith('/api/')) return undefined;
  const end = path.indexOf('/', 5);
  const key = (end === -1 ? path : path.slice(0, end)).toLowerCase();
  return key.length > 5 ? key : undefined;
}

/**
 * Multipart fields without files for 'form' routes (urlencoded is parsed app-wide). multer
 * passes other content types through untouched; a file part is refused (400 bad_upload). The
 * limits match the urlencoded parser's 100 kB so both encodings accept the same bodies.
 */
const formFields: RequestHandler = multer({
  limits: { fieldSize: 100 * 1024, fields: 50, parts: 50, fieldNameSize: 100, files: 0 },
}).none();

export function checkAccess(access: Access, auth: Auth): void {
  if (access === 'public') return;
  if (auth.role === 'anonymous') throw unauthorized();
  if (access === 'authenticated') return;
  if (!access.includes(auth.role)) throw forbidden('Your account type cannot use this.', 'wrong_role');
}
