import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { PgBossJobQueue } from '../../src/jobs/pgboss-queue.js';
import type { JobRun } from '../../src/jobs/jobs.types.js';

/**
 * Shared by the pg-boss queue tests and their worker process (pg-worker.ts): a queue with short
 * heartbeat settings, and a handler that leaves evidence on disk.
 */

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
