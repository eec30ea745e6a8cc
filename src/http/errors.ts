/**
 * The one error type of the service. `code` is a stable snake_case id clients may test;
 * `message` is safe to show a person. The error middleware renders it as the contract's
 * error body: { success: false, message, error, detail? }.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly detail?: unknown,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, detail?: unknown, code = 'bad_request') => new AppError(400, code, message, detail);
export const unauthorized = (message = 'Please log in first.', code = 'not_logged_in') => new AppError(401, code, message);
export const forbidden = (message = 'You are not allowed to do this.', code = 'forbidden') => new AppError(403, code, message);
export const notFound = (message = 'Not found.', code = 'not_found') => new AppError(404, code, message);
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);
export const payloadTooLarge = (message: string) => new AppError(413, 'payload_too_large', message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, 'too_many_requests', message, { retry_after_seconds: retryAfterSeconds });
export const badGateway = (message: string, code = 'upstream_failed') => new AppError(502, code, message);
export const serviceUnavailable = (message: string, code = 'unavailable') => new AppError(503, code, message);
