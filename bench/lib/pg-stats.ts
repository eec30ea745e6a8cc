import type pg from 'pg';

/**
 * What PostgreSQL did for one database, from its cumulative statistics views: transactions, rows
 * written, index and sequential scans. Backends publish their counts late (see settleMs), so read
 * them after a pause, never in the middle of a load.
 */
export interface PgActivity {
  transactions: number;
  inserted: number;
  updated: number;
  deleted: number;
  indexScans: number;
  seqScans: number;
}

/**
 * How long to wait after the last request before reading: a backend that published its counts
 * less than a second before going idle waits PGSTAT_IDLE_INTERVAL (10 s in PostgreSQL 15) before
 * it publishes again.
 */
export const settleMs = 11_000;

export async function pgActivity(client: pg.Client): Promise<PgActivity> {
  const db = await client.query<{ xact: string; ins: string; upd: string; del: string }>(
    `SELECT xact_commit + xact_rollback AS xact, tup_inserted AS ins, tup_updated AS upd, tup_deleted AS del
       FROM pg_stat_database WHERE datname = current_database()`,
  );
  const scans = await client.query<{ idx: string | null; seq: string | null }>('SELECT SUM(idx_scan) AS idx, SUM(seq_scan) AS seq FROM pg_stat_user_tables');
  const d = db.rows[0];
  const s = scans.rows[0];
  return {
    transactions: Number(d?.xact ?? 0),
    inserted: Number(d?.ins ?? 0),
    updated: Number(d?.upd ?? 0),
    deleted: Number(d?.del ?? 0),
    indexScans: Number(s?.idx ?? 0),
    seqScans: Number(s?.seq ?? 0),
  };
}

const KEYS = ['transactions', 'inserted', 'updated', 'deleted', 'indexScans', 'seqScans'] as const;

/** Applies `fn` to every count. */
function map(fn: (k: keyof PgActivity) => number): PgActivity {
  return Object.fromEntries(KEYS.map((k) => [k, fn(k)])) as unknown as PgActivity;
}

/** What happens with no request at all, per second (the instances' pg-boss polling, sweeps, the reader's own queries). */
export function backgroundPerSecond(before: PgActivity, after: PgActivity, seconds: number): PgActivity {
  return map((k) => (after[k] - before[k]) / seconds);
}

/**
 * The difference per request, less the background over the window's `seconds` (from the
 * snapshot before the requests to the one after them, settling included).
 */
export function activityPerRequest(
  before: PgActivity,
  after: PgActivity,
  requests: number,
  background?: { perSecond: PgActivity; seconds: number },
): PgActivity {
  return map((k) => (after[k] - before[k] - (background ? background.perSecond[k] * background.seconds : 0)) / requests);
}

export function formatActivity(a: PgActivity): string {
  const f = (n: number) => n.toFixed(2);
  return `${f(a.transactions)} transactions, ${f(a.inserted)} rows inserted, ${f(a.updated)} updated, ${f(a.deleted)} deleted, ${f(a.indexScans)} index scans, ${f(a.seqScans)} sequential scans`;
}
