import session from 'express-session';
import type { Database } from './database.js';
import { RecentMap } from '../recent-map.js';

type Callback<T = void> = (err?: unknown, value?: T) => void;

/**
 * The session store (express-session's Store interface, used by src/http/session-layer.ts) in
 * the service's database (SQLite or PostgreSQL, through the async
 * `Database` interface), so sessions survive a restart and are shared by every instance.
 * Expired rows are ignored on read and swept at most once a minute on write.
 */
export class DatabaseSessionStore extends session.Store {
  private lastSweep = 0;
  /**
   * The expiry each recent session has in its row. The session layer touches the session on every
   * request; writing the row each time cost a write transaction per request (measured: the
   * largest single cost of a logged-in API call in bench/api.ts). The row's expiry is only moved
   * when it would move by more than `touchEveryMs`, so it may lag the cookie by that much.
   */
  private readonly stored = new RecentMap<string, number>(10_000);
  private readonly touchEveryMs: number;

  constructor(
    private readonly db: Database,
    private readonly defaultMaxAgeMs: number,
  ) {
    super();
    this.touchEveryMs = Math.min(5 * 60_000, defaultMaxAgeMs / 10);
  }

  /**
   * Read from the database on every request, not cached: the table is shared by every instance
   * (issue #18), and a logout or a profile pick on one must hold on all of them at once. The read
   * is one indexed lookup (measured with bench/api.ts on SQLite: a few hundredths of a logged-in
   * call's CPU), so a cache would buy little for a window of stale sessions.
   */
  override get(sid: string, cb: Callback<session.SessionData | null>): void {
    this.db
      .first<{ sess: string; expires_at: number | string }>('SELECT sess, expires_at FROM sessions WHERE sid = ? AND expires_at > ?', [sid, Date.now()])
      .then((row) => {
        if (!row) return null;
        // PostgreSQL may hand a BIGINT back as a string
        this.stored.set(sid, Number(row.expires_at));
        return JSON.parse(row.sess) as session.SessionData;
      })
      .then((sess) => cb(undefined, sess), cb);
  }

  override set(sid: string, sess: session.SessionData, cb?: Callback): void {
    const expires = this.expiryOf(sess);
    this.db
      .run(
        `INSERT INTO sessions (sid, sess, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (sid) DO UPDATE SET sess = excluded.sess, expires_at = excluded.expires_at`,
        [sid, JSON.stringify(sess), expires],
      )
      .then(async () => {
        this.stored.set(sid, expires);
        await this.sweep();
      })
      .then(() => cb?.(), (err: unknown) => cb?.(err));
  }

  override destroy(sid: string, cb?: Callback): void {
    this.db.run('DELETE FROM sessions WHERE sid = ?', [sid]).then(
      () => cb?.(),
      (err: unknown) => cb?.(err),
    );
  }

  /**
   * Extends the expiry only. Writing the whole session here would let a slow request that loaded
   * the session earlier overwrite a change made meanwhile (a picked profile) or revive a session
   * that was logged out.
   */
  override touch(sid: string, sess: session.SessionData, cb?: Callback): void {
    const expires = this.expiryOf(sess);
    const current = this.stored.peek(sid);
    if (current !== undefined && expires - current <= this.touchEveryMs) {
      cb?.();
      return;
    }
    this.db.run('UPDATE sessions SET expires_at = ? WHERE sid = ?', [expires, sid]).then(
      () => {
        this.stored.set(sid, expires);
        cb?.();
      },
      (err: unknown) => cb?.(err),
    );
  }

  private expiryOf(sess: session.SessionData): number {
    return sess.cookie?.expires ? new Date(sess.cookie.expires).getTime() : Date.now() + this.defaultMaxAgeMs;
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    await this.db.run('DELETE FROM sessions WHERE expires_at <= ?', [now]);
  }
}

/** The old name, from when sessions could only live in SQLite. */
export { DatabaseSessionStore as SqliteSessionStore };
