import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
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
 */
export function requestLogger(logger: Logger, trustProxy: boolean): RequestHandler {
  return pinoHttp({
    logger: logger.child({ module: 'http' }),
    // only the request id is bound to req.log; the line itself is built below from allowed fields
    quietReqLogger: true,
    quietResLogger: true,
    genReqId: (req, res) => {
      const given = trustProxy ? req.headers['x-request-id'] : undefined;
      const id = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    customSuccessObject: (req, res, val: { responseTime: number }) => line(req, res, val.responseTime),
    customErrorObject: (req, res, _err, val: { responseTime: number }) => line(req, res, val.responseTime),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request failed',
  }) as unknown as RequestHandler;
}

/** The id pino-http gave this request (undefined before the request logger ran). */
export function requestIdOf(req: Request): string | undefined {
  return typeof req.id === 'string' ? req.id : undefined;
}

function line(req: IncomingMessage, res: ServerResponse, responseTime: number) {
  const r = req as Partial<Request>;
  // the route pattern (/api/final-questions/:video_id) groups requests; the path (no query) names one
  const route = r.route?.path ? `${r.baseUrl ?? ''}${String(r.route.path)}` : undefined;
  const url = (r.originalUrl ?? req.url ?? '').split('?')[0];
  return { method: req.method, url, route, status: res.statusCode, ms: responseTime, aborted: !res.writableFinished || undefined };
}
