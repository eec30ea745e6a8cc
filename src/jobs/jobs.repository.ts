import type { Db } from '../db/database.js';
import type { Job, JobKind, JobListFilter, JobState, Json } from './jobs.types.js';

/** SQL of the `jobs` table; rows mapped to camelCase Job objects. */
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
}

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

export function insertJob(db: Db, j: { id: string; kind: JobKind; videoId: string | null; input: Json; message: string }): Job {
  db.runSync(`INSERT INTO jobs (id, kind, video_id, input, message) VALUES (?, ?, ?, ?, ?)`, [j.id, j.kind, j.videoId, JSON.stringify(j.input), j.message]);
  return getJob(db, j.id)!;
}

export function getJob(db: Db, id: string): Job | undefined {
  const row = db.firstSync<JobRow>('SELECT * FROM jobs WHERE id = ?', [id]);
  return row && toJob(row);
}

export function listJobs(db: Db, f: JobListFilter = {}): Job[] {
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
  const sql = `SELECT * FROM jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, rowid DESC LIMIT ?`;
  return db.allSync<JobRow>(sql, params).map(toJob);
}

/** Takes the oldest queued job of a kind that has a handler and marks it running; undefined when none waits. */
export function claimNextJob(db: Db, kinds: readonly JobKind[]): Job | undefined {
  if (kinds.length === 0) return undefined;
  const marks = kinds.map(() => '?').join(', ');
  const row = db.firstSync<JobRow>(
    `UPDATE jobs SET state = 'running', started_at = ${NOW}, message = 'Started'
      WHERE id = (SELECT id FROM jobs WHERE state = 'queued' AND kind IN (${marks}) ORDER BY created_at, rowid LIMIT 1)
      RETURNING *`,
    [...kinds],
  );
  return row && toJob(row);
}

export function saveProgress(db: Db, id: string, progress: number, message: string): void {
  db.runSync(`UPDATE jobs SET progress = ?, message = ? WHERE id = ? AND state = 'running'`, [progress, message, id]);
}

export function setJobVideo(db: Db, id: string, videoId: string): void {
  db.runSync('UPDATE jobs SET video_id = ? WHERE id = ?', [videoId, id]);
}

/** Finishes a queued or running job; returns false when it had already finished. */
export function finishJob(db: Db, id: string, f: { state: 'succeeded' | 'failed' | 'cancelled'; result: Json | null; error: string | null; message: string }): boolean {
  const r = db.runSync(
    `UPDATE jobs SET state = ?, result = ?, error = ?, message = ?, finished_at = ${NOW},
            progress = CASE WHEN ? = 'succeeded' THEN 1 ELSE progress END
      WHERE id = ? AND state IN ('queued', 'running')`,
    [f.state, f.result === null ? null : JSON.stringify(f.result), f.error, f.message, f.state, id],
  );
  return r.changes > 0;
}

/** At start: jobs a dead process left running become failed with the reason. Returns them as they were. */
export function failOrphanedJobs(db: Db, reason: string): Job[] {
  return db.transactionSync(() => {
    const rows = db.allSync<JobRow>(`SELECT * FROM jobs WHERE state = 'running'`);
    db.runSync(`UPDATE jobs SET state = 'failed', error = ?, message = ?, finished_at = ${NOW} WHERE state = 'running'`, [reason, reason]);
    return rows.map(toJob);
  });
}

function toJob(r: JobRow): Job {
  return {
    id: r.id,
    kind: r.kind,
    videoId: r.video_id,
    state: r.state,
    progress: r.progress,
    message: r.message,
    input: parseJson(r.input) ?? {},
    result: r.result === null ? null : parseJson(r.result),
    error: r.error,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

function parseJson(text: string): Json | null {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return null;
  }
}
