import http from 'node:http';
import type { Express } from 'express';

/**
 * The HTTP server for an Express app, with each request and response object created with the
 * app's own prototypes (`app.request`, `app.response`) from the start.
 *
 * Why: Express gives every request and response its prototypes with `Object.setPrototypeOf`
 * (express/lib/application.js, `app.handle`). For V8 that swap is expensive far beyond the call:
 * it changes the objects' hidden class and invalidates the prototype-chain checks of every
 * inline cache that had seen them, so every later property access on `req`/`res` (Node's http
 * code, Express, the router, our middleware) runs through the slow lookup path. Measured on this
 * 2-core machine with wrk (2026-11-26, `perf record`): V8's LoadIC_Miss / LookupIterator /
 * MigrateToMap made up most of a bare Express handler's CPU, about 240 us per request against
 * 35 us for a plain Node handler; with the objects created on the app's prototypes, Express's own
 * swap finds the prototype already set (no change, no invalidation) and the bare handler took
 * 120 to 145 us, the service's logged-in API calls about a third less CPU.
 *
 * Nothing else changes: the objects are what Express would have made them (same prototype chain,
 * so `instanceof http.IncomingMessage` / `http.ServerResponse` hold), built through Node's
 * documented `IncomingMessage` / `ServerResponse` server options by calling Node's own
 * constructors on them. (`Reflect.construct` with the app's prototype as new.target was measured
 * too: it gave back all of the cost.) Node defines both as plain functions; should a later Node
 * make them classes, which cannot be called that way, the server is the stock one. An app handed
 * to another server (supertest in the tests) still works the stock way.
 */
export function createHttpServer(app: Express, options: http.ServerOptions = {}): http.Server {
  if (!callable(http.IncomingMessage) || !callable(http.ServerResponse)) return http.createServer(options, app);
  const IncomingMessage = http.IncomingMessage as unknown as (this: object, socket: unknown) => void;
  const ServerResponse = http.ServerResponse as unknown as (this: object, req: unknown, opts: unknown) => void;
  function AppRequest(this: object, socket: unknown) {
    IncomingMessage.call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: object, req: unknown, opts: unknown) {
    ServerResponse.call(this, req, opts);
  }
  AppResponse.prototype = app.response;
  return http.createServer(
    {
      ...options,
      IncomingMessage: AppRequest as unknown as typeof http.IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof http.ServerResponse,
    },
    app,
  );
}

/** A constructor that can be called as a function (not an ES class). */
function callable(ctor: unknown): boolean {
  return typeof ctor === 'function' && !/^class[\s{]/.test(Function.prototype.toString.call(ctor));
}
