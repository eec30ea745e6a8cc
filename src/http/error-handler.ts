import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { AppError, notFound } from './errors.js';
import { requestIdOf } from './request-log.js';

/** Unknown /api paths get the contract's JSON error body rather than Express's HTML page. */
export const apiNotFound: RequestHandler = (req, _res, next) => {
  next(notFound(`No route ${req.method} ${req.path}.`, 'route_not_found'));
};

/**
 * The one error renderer. AppErrors are answered with their status and safe message; body-parser
 * and multer errors become 400/413; anything else is logged with its stack and answered with a
 * generic 500 that leaks nothing.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const e = toAppError(err);
    const requestId = requestIdOf(res);
    if (e.status >= 500 && !(err instanceof AppError)) logger.error({ err, reqId: requestId, method: req.method, path: req.path }, 'unhandled error');
    if (res.headersSent) {
      res.end();
      return;
    }
    if (e.status === 429 && e.detail && typeof e.detail === 'object' && 'retry_after_seconds' in e.detail) {
      res.setHeader('Retry-After', String((e.detail as { retry_after_seconds: number }).retry_after_seconds));
    }
    const wantsHtml = !req.path.startsWith('/api/') && req.accepts(['json', 'html']) === 'html';
    if (wantsHtml) {
      res.status(e.status).type('html').send(`<!doctype html><meta charset="utf-8"><title>${e.status}</title><p>${escapeHtml(e.message)}</p>${e.status >= 500 && requestId ? `<p>Request id: ${escapeHtml(requestId)}</p>` : ''}<p><a href="/">Home</a></p>`);
      return;
    }
    const body: Record<string, unknown> = { success: false, message: e.message, error: e.code };
    if (e.detail !== undefined) body.detail = e.detail;
    // the id a parent or admin can quote, to find this failure in the log
    if (e.status >= 500 && requestId) body.request_id = requestId;
    res.status(e.status).json(body);
  };
}

function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const anyErr = err as { type?: string; status?: number; code?: string; name?: string; message?: string; field?: string };
  if (anyErr?.type === 'entity.parse.failed') return new AppError(400, 'invalid_json', 'The request body is not valid JSON.');
  if (anyErr?.type === 'entity.too.large') return new AppError(413, 'payload_too_large', 'The request body is too large.');
  if (anyErr?.name === 'MulterError') {
    if (anyErr.code === 'LIMIT_FILE_SIZE') return new AppError(413, 'file_too_large', 'The uploaded file is too large.');
    return new AppError(400, 'bad_upload', `The upload is not valid (${anyErr.message ?? 'multipart error'}).`);
  }
  if (typeof anyErr?.status === 'number' && anyErr.status >= 400 && anyErr.status < 500) {
    return new AppError(anyErr.status, 'bad_request', 'The request could not be read.');
  }
  return new AppError(500, 'internal_error', 'Something went wrong on our side. Please try again.');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
