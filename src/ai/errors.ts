/**
 * Structured provider errors. Every failure of a provider call ends up as one ProviderError
 * with a stable code, a safe message and whether trying again may help; the generation run
 * sends exactly these fields in `segment_result` events.
 */
export const PROVIDER_ERROR_CODES = [
  'rate_limited', // 429: retryable after a pause
  'unavailable', // 5xx, connection refused or reset: retryable
  'timeout', // no answer within AI_TIMEOUT_MS: retryable
  'invalid_reply', // not JSON or not the expected shape: retryable (models vary)
  'refused', // the model declined (refusal text, safety stop): not retryable
  'auth_failed', // 401/403: wrong key: not retryable
  'bad_request', // other 4xx (unknown model, request too large): not retryable
  'not_configured', // no key / base URL for this provider: not retryable
  'no_input', // nothing to ask about (no frames and no subtitles): not retryable
  'aborted', // the caller cancelled (socket closed): not retryable
] as const;
export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];

const RETRYABLE = new Set<ProviderErrorCode>(['rate_limited', 'unavailable', 'timeout', 'invalid_reply']);

export class ProviderError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    readonly provider: string,
    /** the server's Retry-After, when it gave one */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.retryable = RETRYABLE.has(code);
  }

  toJSON(): { code: ProviderErrorCode; message: string; retryable: boolean; provider: string } {
    return { code: this.code, message: this.message, retryable: this.retryable, provider: this.provider };
  }
}

interface HttpishError {
  status?: unknown;
  headers?: unknown;
  name?: unknown;
  message?: unknown;
}

/**
 * Maps whatever an SDK threw to a ProviderError. The three SDKs share the shape that matters
 * here (`status`, `headers`, an error class name), so one classifier serves all of them.
 */
export function classifyError(provider: string, err: unknown, signal?: AbortSignal): ProviderError {
  if (err instanceof ProviderError) return err;
  if (signal?.aborted) return new ProviderError('aborted', 'The request was cancelled.', provider);
  const e = (err ?? {}) as HttpishError;
  const name = typeof e.name === 'string' ? e.name : '';
  const status = typeof e.status === 'number' ? e.status : undefined;
  if (name === 'AbortError' || name === 'APIUserAbortError') return new ProviderError('aborted', 'The request was cancelled.', provider);
  if (name.includes('Timeout') || name === 'TimeoutError') return new ProviderError('timeout', 'The provider did not answer in time.', provider);
  if (status === 429) return new ProviderError('rate_limited', 'The provider is rate limiting requests.', provider, retryAfter(e.headers));
  if (status === 401 || status === 403) return new ProviderError('auth_failed', `The provider refused the credentials (HTTP ${status}).`, provider);
  if (status === 408) return new ProviderError('timeout', 'The provider timed out (HTTP 408).', provider);
  if (status !== undefined && status >= 500) return new ProviderError('unavailable', `The provider failed (HTTP ${status}).`, provider, retryAfter(e.headers));
  if (status !== undefined && status >= 400) return new ProviderError('bad_request', `The provider rejected the request (HTTP ${status}).`, provider);
  if (name.includes('Connection') || /fetch failed|ECONNREFUSED|ECONNRESET|socket/i.test(String(e.message ?? ''))) {
    return new ProviderError('unavailable', 'The provider could not be reached.', provider);
  }
  return new ProviderError('unavailable', `The provider call failed: ${String(e.message ?? err).slice(0, 200)}`, provider);
}

function retryAfter(headers: unknown): number | undefined {
  let value: string | null | undefined;
  if (headers && typeof (headers as Headers).get === 'function') value = (headers as Headers).get('retry-after');
  else if (headers && typeof headers === 'object') value = (headers as Record<string, string>)['retry-after'];
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}
