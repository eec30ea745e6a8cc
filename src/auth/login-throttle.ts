import type { Database } from '../db/database.js';
import { tooManyRequests } from '../http/errors.js';
import type { Secrets } from './secrets.js';

/**
 * Failed-login throttling kept in the database (so it survives restarts and is shared by every
 * request and every instance). A key is locked for `lockMs` once it collects `maxFailures` failures within
 * `windowMs`. Keys are hashed so no address or code is stored in plain text.
 */
export interface ThrottleRule {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

/** per client address and login kind: a person mistyping a few times is never locked out */
export const PER_CLIENT: ThrottleRule = { maxFailures: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
/** per account (the admin, or an expert id on the legacy route) */
export const PER_ACCOUNT: ThrottleRule = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
/** per login kind across all clients: code logins name no account, so this bounds distributed guessing */
export const PER_KIND: ThrottleRule = { maxFailures: 200, windowMs: 15 * 60_000, lockMs: 5 * 60_000 };

export class LoginThrottle {
  constructor(
    private readonly db: Database,
    private readonly secrets: Secrets,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 429 when any of the keys is locked. */
  async check(keys: [string, ThrottleRule][]): Promise<void> {
    const now = this.now();
    for (const [key] of keys) {
      const row = await this.db.first<{ locked_until: number }>('SELECT locked_until FROM login_throttle WHERE key = ?', [this.secrets.hash(key)]);
      const lockedUntil = row ? Number(row.locked_until) : 0;
      if (lockedUntil > now) {
        const seconds = Math.ceil((lockedUntil - now) / 1000);
        throw tooManyRequests(`Too many wrong attempts. Please wait ${Math.ceil(seconds / 60)} minute(s) and try again.`, seconds);
      }
    }
  }

  async fail(keys: [string, ThrottleRule][]): Promise<void> {
    const now = this.now();
    await this.db.transaction(async (tx) => {
      for (const [key, rule] of keys) {
        const hashed = this.secrets.hash(key);
        const row = await tx.first<{ failures: number; window_start: number }>(
          'SELECT failures, window_start FROM login_throttle WHERE key = ?',
          [hashed],
        );
        // counters are integers on SQLite and may be int8 text on PostgreSQL
        const windowStart = row ? Number(row.window_start) : 0;
        const fresh = !row || now - windowStart > rule.windowMs;
        const failures = fresh ? 1 : Number(row.failures) + 1;
        const lockedUntil = failures >= rule.maxFailures ? now + rule.lockMs : 0;
        await tx.run(
          `INSERT INTO login_throttle (key, failures, window_start, locked_until) VALUES (?, ?, ?, ?)
           ON CONFLICT(key) DO UPDATE SET failures = excluded.failures, window_start = excluded.window_start,
             locked_until = excluded.locked_until`,
          [hashed, lockedUntil ? 0 : failures, fresh || lockedUntil ? now : windowStart, lockedUntil],
        );
      }
    });
  }

  async succeed(keys: string[]): Promise<void> {
    for (const key of keys) await this.db.run('DELETE FROM login_throttle WHERE key = ?', [this.secrets.hash(key)]);
  }
}
