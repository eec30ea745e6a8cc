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

/**
 * The difference per request. It includes the reading client's own two queries and the
 * instances' background work in between (pg-boss polling): a few hundredths per request over
 * 200 requests.
 */
export function activityPerRequest(before: PgActivity, after: PgActivity, requests: number): PgActivity {
  const per = (k: keyof PgActivity) => (after[k] - before[k]) / requests;
  return {
    transactions: per('transactions'),
    inserted: per('inserted'),
    updated: per('updated'),
    deleted: per('deleted'),
    indexScans: per('indexScans'),
    seqScans: per('seqScans'),
  };
}

export function formatActivity(a: PgActivity): string {
  const f = (n: number) => n.toFixed(2);
  return `${f(a.transactions)} transactions, ${f(a.inserted)} rows inserted, ${f(a.updated)} updated, ${f(a.deleted)} deleted, ${f(a.indexScans)} index scans, ${f(a.seqScans)} sequential scans`;
}
