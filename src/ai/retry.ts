import { ProviderError, classifyError } from './errors.js';

export interface RetryOptions {
  provider: string;
  /** extra attempts after the first */
  maxRetries: number;
  /** first back-off; doubles each time, with jitter */
  baseDelayMs?: number;
  /** never wait longer than this between attempts (also caps a server's Retry-After) */
  maxDelayMs?: number;
  signal?: AbortSignal;
  onRetry?: (err: ProviderError, attempt: number, delayMs: number) => void;
}

/**
 * Runs fn with a bounded retry: only retryable ProviderErrors are retried, with exponential
 * back-off and full jitter (a server's Retry-After wins when it is longer). The SDKs' own
 * retries are switched off so this is the one policy, and a cancelled signal stops at once.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, o: RetryOptions): Promise<T> {
  const base = o.baseDelayMs ?? 500;
  const cap = o.maxDelayMs ?? 20_000;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (raw) {
      const err = classifyError(o.provider, raw, o.signal);
      if (!err.retryable || attempt >= o.maxRetries || o.signal?.aborted) throw err;
      const backoff = Math.random() * base * 2 ** attempt;
      const delay = Math.min(cap, Math.max(backoff, err.retryAfterMs ?? 0));
      o.onRetry?.(err, attempt + 1, delay);
      await sleep(delay, o.signal, o.provider);
    }
  }
}

export function sleep(ms: number, signal: AbortSignal | undefined, provider: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ProviderError('aborted', 'The request was cancelled.', provider));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ProviderError('aborted', 'The request was cancelled.', provider));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
