import type { Database } from '../db/database.js';
import type { CancelReason, Job, JobKind, JobListFilter, JobState, Json } from './jobs.types.js';

/**
 * SQL of the `jobs` table; rows mapped to camelCase Job objects. Portable SQL (SQLite and
 * PostgreSQL run the same text): timestamps are ISO strings made here, never by the engine.
 */
interface JobRow {
  id: string;
  kind: JobKind;
  video_id: string | null;
  state: JobState;
  progress: number;
  message: string;
  input: string;
  result: string | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  heartbeat_at: string | null;
  cancel_requested: CancelReason | null;
}

let lastStamp = 0;
/**
 * An ISO timestamp that never repeats or goes back within this process: `created_at` orders the
 * queue (oldest first) and the admin's list, and two jobs enqueued in the same millisecond must
 * keep their order on both engines (PostgreSQL has no rowid to break the tie).
 */
export function monotonicNow(): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp).toISOString();
}

const now = () => new Date().toISOString();

export async function insertJob(db: Database, j: { id: string; kind: JobKind; videoId: string | null; input: Json; message: string }): Promise<Job> {
  const row = await db.first<JobRow>(`INSERT INTO jobs (id, kind, video_id, input, message, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *`, [
    j.id,
    j.kind,
    j.videoId,
    JSON.stringify(j.input),
    j.message,
    monotonicNow(),
  ]);
  return toJob(row!);
}

export async function getJob(db: Database, id: string): Promise<Job | undefined> {
  const row = await db.first<JobRow>('SELECT * FROM jobs WHERE id = ?', [id]);
  return row && toJob(row);
}

/** The rows of these ids (any state), for the watch loop. */
export async function getJobs(db: Database, ids: readonly string[]): Promise<Job[]> {
  if (ids.length === 0) return [];
  const rows = await db.all<JobRow>(`SELECT * FROM jobs WHERE id IN (${ids.map(() => '?').join(', ')})`, [...ids]);
  return rows.map(toJob);
}

export async function countQueued(db: Database): Promise<number> {
  const row = await db.first<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs WHERE state = 'queued'`);
  return Number(row?.n ?? 0);
}

export async function listJobs(db: Database, f: JobListFilter = {}): Promise<Job[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.kind) {
    where.push('kind = ?');
    params.push(f.kind);
  }
  if (f.state) {
    where.push('state = ?');
    params.push(f.state);
  }
  if (f.active) where.push(`state IN ('queued', 'running')`);
  if (f.videoId) {
    where.push('video_id = ?');
    params.push(f.videoId);
  }
  params.push(f.limit ?? 50);
  const sql = `SELECT * FROM jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ?`;
  return (await db.all<JobRow>(sql, params)).map(toJob);
}

/**
 * Marks one queued job running, atomically (one UPDATE … RETURNING: two processes on one SQLite
 * file or two PostgreSQL workers never both get it). With `id`, that job only (pg-boss handed it
 * over); without, the oldest queued job of the given kinds: SQLite's dispatch, where writers take
 * turns (on PostgreSQL two such claims at once could pick the same row and one get nothing, which
 * is why pg-boss dispatches there). Undefined when there is none (or it was cancelled meanwhile).
 */
export async function claimJob(db: Database, pick: { id: string } | { kinds: readonly JobKind[] }): Promise<Job | undefined> {
  const at = now();
  if ('id' in pick) {
    const row = await db.first<JobRow>(
      `UPDATE jobs SET state = 'running', started_at = ?, heartbeat_at = ?, message = 'Started' WHERE id = ? AND state = 'queued' RETURNING *`,
      [at, at, pick.id],
    );
    return row && toJob(row);
  }
  if (pick.kinds.length === 0) return undefined;
  const marks = pick.kinds.map(() => '?').join(', ');
  const row = await db.first<JobRow>(
    `UPDATE jobs SET state = 'running', started_at = ?, heartbeat_at = ?, message = 'Started'
      WHERE id = (SELECT id FROM jobs WHERE state = 'queued' AND kind IN (${marks}) ORDER BY created_at, id LIMIT 1)
        AND state = 'queued'
      RETURNING *`,
    [at, at, ...pick.kinds],
  );
  return row && toJob(row);
}

export async function saveProgress(db: Database, id: string, progress: number, message: string): Promise<void> {
  // while a cancel is pending the message keeps saying so
  await db.run(`UPDATE jobs SET progress = ?, message = CASE WHEN cancel_requested IS NULL THEN ? ELSE message END WHERE id = ? AND state = 'running'`, [
    progress,
    message,
    id,
  ]);
}

export async function setJobVideo(db: Database, id: string, videoId: string): Promise<void> {
  await db.run('UPDATE jobs SET video_id = ? WHERE id = ?', [videoId, id]);
}

/** A running job's sign of life, written every JOB_HEARTBEAT_SECONDS by the instance that runs it. */
export async function beat(db: Database, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.run(`UPDATE jobs SET heartbeat_at = ? WHERE state = 'running' AND id IN (${ids.map(() => '?').join(', ')})`, [now(), ...ids]);
}

/** Asks whichever instance runs the job to stop it; false when it is not running (any more). */
export async function requestCancel(db: Database, id: string, reason: CancelReason): Promise<boolean> {
  const r = await db.run(`UPDATE jobs SET cancel_requested = COALESCE(cancel_requested, ?), message = 'Cancelling' WHERE id = ? AND state = 'running'`, [
    reason,
    id,
  ]);
  return r.changes > 0;
}

/** Finishes a queued or running job; returns false when it had already finished. */
export async function finishJob(
  db: Database,
  id: string,
  f: { state: 'succeeded' | 'failed' | 'cancelled'; result: Json | null; error: string | null; message: string },
  onlyFrom: readonly JobState[] = ['queued', 'running'],
): Promise<boolean> {
  const r = await db.run(
    `UPDATE jobs SET state = ?, result = ?, error = ?, message = ?, finished_at = ?,
            progress = CASE WHEN ? = 'succeeded' THEN 1 ELSE progress END
      WHERE id = ? AND state IN (${onlyFrom.map(() => '?').join(', ')})`,
    [f.state, f.result === null ? null : JSON.stringify(f.result), f.error, f.message, now(), f.state, id, ...onlyFrom],
  );
  return r.changes > 0;
}

/**
 * Jobs `running` whose worker stopped beating for longer than `staleMs` (a crash, a SIGKILL, a
 * lost machine) become failed with the reason; returns them. One statement, so a heartbeat that
 * lands meanwhile is never overruled. ISO text compares like time. At most `staleMs` old is stale
 * (`<=`): with staleMs 0 (the embedded server's start) every running job is, even one whose last
 * beat has the same millisecond as the sweep (a `<` missed it: a flaky test in CI).
 */
export async function failStaleJobs(db: Database, staleMs: number, reason: string): Promise<Job[]> {
  const limit = new Date(Date.now() - staleMs).toISOString();
  const rows = await db.all<JobRow>(
    `UPDATE jobs SET state = 'failed', error = ?, message = ?, finished_at = ?
      WHERE state = 'running' AND COALESCE(heartbeat_at, started_at, created_at) <= ?
      RETURNING *`,
    [reason, reason, now(), limit],
  );
  return rows.map(toJob);
}

function toJob(r: JobRow): Job {
  return {
    id: r.id,
    kind: r.kind,
    videoId: r.video_id,
    state: r.state,
    progress: Number(r.progress),
    message: r.message,
    input: parseJson(r.input) ?? {},
    result: r.result === null ? null : parseJson(r.result),
    error: r.error,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    cancelRequested: r.cancel_requested ?? null,
  };
}

function parseJson(text: string): Json | null {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return null;
  }
}
