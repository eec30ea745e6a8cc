import type { Database } from '../db/database.js';
import { SharedRateLimit } from '../coordination/shared-limits.js';
import { tooManyRequests } from '../http/errors.js';

/**
 * A per-session limit on code runs and hints (one key per child profile / expert / admin): a
 * sliding one-minute window. Sandbox capacity is the scarce thing here, and a tablet tapping
 * "Run" in a loop must not starve a class; the runner's own queue limit (429/503) still guards
 * the machine as a whole. The window is kept in the database so several instances count one
 * limit (issue #18).
 */
export class CallerRateLimit {
  private readonly window: SharedRateLimit;

  constructor(
    db: Database,
    private readonly perMinute: number,
    now: () => number = Date.now,
  ) {
    this.window = new SharedRateLimit(db, 'code', perMinute, 60_000, now);
  }

  /** Counts one call for `key`, or throws 429 with Retry-After seconds when the window is full. */
  async take(key: string): Promise<void> {
    if (this.perMinute <= 0) return;
    const decision = await this.window.take(key);
    if (!decision.allowed) {
      const wait = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      throw tooManyRequests(`That was a lot of tries in one minute. Please wait ${wait} seconds and try again.`, wait);
    }
  }
}
