import session from 'express-session';
import type { Db } from './database.js';
import { RecentMap } from '../recent-map.js';

type Callback<T = void> = (err?: unknown, value?: T) => void;

/**
 * express-session store in the service's SQLite file, so sessions survive a restart.
 * Expired rows are ignored on read and swept at most once a minute on write.
 */
export class SqliteSessionStore extends session.Store {
  private lastSweep = 0;
  /**
   * The expiry each recent session has in its row. The rolling cookie touches the session on
   * every request; writing the row each time cost a write transaction per request (measured: the
   * largest single cost of a logged-in API call in bench/api.ts). The row's expiry is only moved
   * when it would move by more than `touchEveryMs`, so it may lag the cookie by that much.
   */
  private readonly stored = new RecentMap<string, number>(10_000);
  private readonly touchEveryMs: number;

  constructor(
    private readonly db: Db,
    private readonly defaultMaxAgeMs: number,
  ) {
    super();
    this.touchEveryMs = Math.min(5 * 60_000, defaultMaxAgeMs / 10);
  }

  override get(sid: string, cb: Callback<session.SessionData | null>): void {
    try {
      const row = this.db.firstSync<{ sess: string; expires_at: number }>('SELECT sess, expires_at FROM sessions WHERE sid = ? AND expires_at > ?', [
        sid,
        Date.now(),
      ]);
      if (row) this.stored.set(sid, row.expires_at);
      cb(undefined, row ? (JSON.parse(row.sess) as session.SessionData) : null);
    } catch (err) {
      cb(err);
    }
  }

  override set(sid: string, sess: session.SessionData, cb?: Callback): void {
    try {
      const expires = sess.cookie?.expires ? new Date(sess.cookie.expires).getTime() : Date.now() + this.defaultMaxAgeMs;
      this.db.runSync(
        `INSERT INTO sessions (sid, sess, expires_at) VALUES (?, ?, ?)
         ON CONFLICT(sid) DO UPDATE SET sess = excluded.sess, expires_at = excluded.expires_at`,
        [sid, JSON.stringify(sess), expires],
      );
      this.stored.set(sid, expires);
      this.sweep();
      cb?.();
    } catch (err) {
      cb?.(err);
    }
  }

  override destroy(sid: string, cb?: Callback): void {
    try {
      this.db.runSync('DELETE FROM sessions WHERE sid = ?', [sid]);
      cb?.();
    } catch (err) {
      cb?.(err);
    }
  }

  /**
   * Extends the expiry only. Writing the whole session here would let a slow request that loaded
   * the session earlier overwrite a change made meanwhile (a picked profile) or revive a session
   * that was logged out.
   */
  override touch(sid: string, sess: session.SessionData, cb?: Callback): void {
    try {
      const expires = sess.cookie?.expires ? new Date(sess.cookie.expires).getTime() : Date.now() + this.defaultMaxAgeMs;
      const current = this.stored.peek(sid);
      if (current === undefined || expires - current > this.touchEveryMs) {
        this.db.runSync('UPDATE sessions SET expires_at = ? WHERE sid = ?', [expires, sid]);
        this.stored.set(sid, expires);
      }
      cb?.();
    } catch (err) {
      cb?.(err);
    }
  }

  private sweep(): void {
    const now = Date.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    this.db.runSync('DELETE FROM sessions WHERE expires_at <= ?', [now]);
  }
}
