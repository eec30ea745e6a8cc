import { randomUUID } from 'node:crypto';
import type { RequestHandler, Request, Response } from 'express';
import type { Logger } from '../logger.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** what a proxy's id may look like: anything else is replaced, so a header cannot inject log content */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:@-]{1,128}$/;

/**
 * One log line per finished request: request id, method, path, matched route, status and time.
 * Only those fields are logged, never headers (cookies, authorization), query strings or bodies,
 * so access codes, passwords, audio and children's answers cannot reach the log. The id comes from
 * the proxy's `X-Request-Id` only when TRUST_PROXY is on (anyone could send the header otherwise),
 * is generated otherwise, and is sent back in the response header (and in 5xx bodies by the
 * error handler) so a parent's "it said error" can be found in the log.
 *
 * Hand-written rather than pino-http: pino-http builds two child loggers per request, which cost
 * about 5% of the CPU of a logged-in API call in bench/api.ts even with logging off; this writes
 * the one line with the process logger, and nothing when the level is off.
 */
export function requestLogger(logger: Logger, trustProxy: boolean): RequestHandler {
  const log = logger.child({ module: 'http' });
  return (req, res, next) => {
    const given = trustProxy ? req.headers['x-request-id'] : undefined;
    const id = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    res.locals.requestId = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    const started = performance.now();
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      const status = res.statusCode;
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!log.isLevelEnabled(level)) return;
      log[level](line(req, res, id, performance.now() - started), status >= 500 ? 'request failed' : 'request');
    };
    res.once('finish', done);
    res.once('close', done);
    next();
  };
}

/** The id the request logger gave this request (undefined before it ran). */
export function requestIdOf(res: Response): string | undefined {
  const id: unknown = res.locals.requestId;
  return typeof id === 'string' ? id : undefined;
}

function line(req: Request, res: Response, reqId: string, ms: number) {
  // the route pattern (/api/final-questions/:video_id) groups requests; the path (no query) names one.
  // API routes record their full pattern (they sit in a prefix group's router, see Api); pages
  // are matched on the app itself.
  const apiRoute: unknown = res.locals.route;
  const route = typeof apiRoute === 'string' ? apiRoute : req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : undefined;
  return {
    reqId,
    method: req.method,
    url: req.originalUrl.split('?')[0],
    route,
    status: res.statusCode,
    ms: Math.round(ms * 10) / 10,
    // the client went away before the answer was complete
    aborted: res.writableFinished ? undefined : true,
  };
}
