import type { Database } from '../db/database.js';

/**
 * Rate windows and leases in the shared database (issue #18): what decides access must agree
 * between web instances, so it cannot live in one process's memory. Both work on SQLite and
 * PostgreSQL with the same SQL; on PostgreSQL a transaction-scoped advisory lock per key makes
 * "count, then add" atomic across instances (SQLite's single writer already does).
 */

export interface RateDecision {
  allowed: boolean;
  /** when refused: milliseconds until the oldest counted hit leaves the window */
  retryAfterMs: number;
}

/** Serialises writers on one key for the rest of the transaction (PostgreSQL; SQLite has one writer). */
async function lockKey(tx: Database, key: string): Promise<void> {
  if (tx.engine === 'postgres') await tx.first('SELECT pg_advisory_xact_lock(hashtext(?)) AS locked', [key]);
}

/**
 * Counts one hit for `key` when fewer than `max` fall within the last `windowMs`; otherwise
 * refuses and says how long until a slot frees up. Hits older than the window are removed.
 */
export async function takeRateSlot(db: Database, key: string, max: number, windowMs: number, now: number): Promise<RateDecision> {
  return db.transaction(async (tx) => {
    await lockKey(tx, key);
    const since = now - windowMs;
    await tx.run('DELETE FROM rate_hits WHERE key = ? AND at <= ?', [key, since]);
    const row = await tx.first<{ n: number; oldest: number | null }>('SELECT COUNT(*) AS n, MIN(at) AS oldest FROM rate_hits WHERE key = ?', [key]);
    const n = Number(row?.n ?? 0);
    if (n >= max) return { allowed: false, retryAfterMs: Math.max(0, Number(row?.oldest ?? now) + windowMs - now) };
    await tx.run('INSERT INTO rate_hits (key, at) VALUES (?, ?)', [key, now]);
    return { allowed: true, retryAfterMs: 0 };
  });
}

/** Removes every hit older than `olderThanMs` (keys nobody used again); returns how many. */
export async function sweepRateHits(db: Database, olderThan: number): Promise<number> {
  return (await db.run('DELETE FROM rate_hits WHERE at < ?', [olderThan])).changes;
}

/**
 * Takes the lease `name` for `owner` until `now + ttlMs` when nobody holds it, or its holder let
 * it expire (a crashed instance), or `owner` already holds it (a renewal). Returns whether
 * `owner` holds it now.
 */
export async function acquireLease(db: Database, name: string, owner: string, ttlMs: number, now: number): Promise<boolean> {
  const { changes } = await db.run(
    `INSERT INTO leases (name, owner, expires_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
     WHERE leases.expires_at <= ? OR leases.owner = excluded.owner`,
    [name, owner, now + ttlMs, now],
  );
  return changes === 1;
}

/** Gives the lease back, only if `owner` still holds it. */
export async function releaseLease(db: Database, name: string, owner: string): Promise<void> {
  await db.run('DELETE FROM leases WHERE name = ? AND owner = ?', [name, owner]);
}
