import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { PgBossJobQueue } from '../../src/jobs/pgboss-queue.js';
import type { JobRun } from '../../src/jobs/jobs.types.js';

/**
 * Shared by the pg-boss queue tests and their worker process (pg-worker.ts): the jobs table on
 * PostgreSQL, a queue with short heartbeat settings, and a handler that leaves evidence on disk.
 */

/**
 * The `jobs` table as migrations 005 + 009 make it, in PostgreSQL's dialect. (Interim: the
 * migration runner for PostgreSQL is the postgres engineer's part; once it is on main, these
 * tests run the real migrations instead.)
 */
export async function createJobsTable(db: Database): Promise<void> {
  await db.run(`CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('download', 'frames')),
    video_id TEXT,
    state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
    progress REAL NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
    message TEXT NOT NULL DEFAULT '',
    input TEXT NOT NULL DEFAULT '{}',
    result TEXT,
    error TEXT,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    heartbeat_at TEXT,
    cancel_requested TEXT
  )`);
}

/** a heartbeat every 300 ms, stale after 1.5 s, a tick every 100 ms */
export const SHORT = { heartbeatMs: 300, staleMs: 1500, pollMs: 100 };

export function pgQueue(db: Database, url: string, concurrency: number): PgBossJobQueue {
  return new PgBossJobQueue(db, createLogger('silent'), { ...SHORT, concurrency, connectionString: url });
}

export interface StepInput {
  steps: number;
  stepMs: number;
  /** a folder where each run appends its pid to <job id>.runs, and an abort writes <job id>.aborted */
  marks: string;
}

/** A job of `steps` steps that reports progress after each; stops when its signal is aborted. */
export async function stepHandler(run: JobRun): Promise<{ ok: boolean; result: { pid: number; steps: number }; error?: string }> {
  const input = run.job.input as unknown as StepInput;
  fs.appendFileSync(path.join(input.marks, `${run.job.id}.runs`), `${process.pid}\n`);
  for (let i = 1; i <= input.steps; i++) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, input.stepMs);
      run.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (run.signal.aborted) {
      fs.writeFileSync(path.join(input.marks, `${run.job.id}.aborted`), String((run.signal.reason as Error)?.message ?? ''));
      return { ok: false, result: { pid: process.pid, steps: i - 1 }, error: 'stopped' };
    }
    run.progress(i / input.steps, `Step ${i} of ${input.steps}`);
  }
  return { ok: true, result: { pid: process.pid, steps: input.steps } };
}
