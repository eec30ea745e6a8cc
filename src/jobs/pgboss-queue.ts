import PgBoss from 'pg-boss';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import { AppError } from '../http/errors.js';
import { claimJob, finishJob } from './jobs.repository.js';
import { LocalJobQueue } from './local-queue.js';
import type { LocalQueueOptions } from './jobs.types.js';
import type { Job } from './jobs.types.js';

/** The one pg-boss queue every job goes through; the payload is only our job id. */
export const PGBOSS_QUEUE = 'kvq-jobs';
/**
 * pg-boss's own expiry of an active job. Our heartbeat fails a dead worker's job within
 * JOB_HEARTBEAT_TIMEOUT_SECONDS; this is only pg-boss's bookkeeping, set past the longest
 * download (30 minutes) so it never fires on a live job.
 */
const BOSS_EXPIRE_SECONDS = 4 * 3600;

export interface PgBossQueueOptions extends LocalQueueOptions {
  /** the PostgreSQL URL (DATABASE_URL); pg-boss keeps its tables in the `pgboss` schema there */
  connectionString: string;
}

/**
 * JobQueue on PostgreSQL: pg-boss does the dispatch (a queue entry per job, handed to exactly one
 * worker with SKIP LOCKED, across any number of processes and machines); our `jobs` table (through
 * the `Database`) keeps what the routes show (state, progress, message, result) and the heartbeat
 * and cancel request. Everything else (handlers, heartbeat, stale sweep, cancel requests, the
 * watch loop that shows other instances' progress, `wait`) is LocalJobQueue's, unchanged.
 *
 * Order of writes: the row first, then `boss.send`; when the send fails, the row is marked failed
 * at once (never a queued row without its queue entry). A worker that fetches an entry claims the
 * row with one `UPDATE … WHERE state = 'queued'`: an entry whose row was cancelled meanwhile (or
 * is delivered twice) is completed without running, so a job runs at most once. pg-boss retries
 * are off (`retryLimit: 0`): a job whose worker died is failed with a reason by the heartbeat
 * sweep, like on SQLite, never re-run behind the admin's back.
 */
export class PgBossJobQueue extends LocalJobQueue {
  private boss: PgBoss | undefined;

  constructor(
    db: Database,
    logger: Logger,
    private readonly bossOpts: PgBossQueueOptions,
  ) {
    super(db, logger, bossOpts);
  }

  protected override async startDispatch(): Promise<void> {
    const boss = new PgBoss({
      connectionString: this.bossOpts.connectionString,
      application_name: 'kvq-jobs',
      // a small pool: one fetch a second and a send per enqueue
      max: 3,
      schedule: false,
      retryLimit: 0,
      expireInSeconds: BOSS_EXPIRE_SECONDS,
    });
    boss.on('error', (err) => this.log.error({ err }, 'pg-boss error'));
    await boss.start();
    await ensureQueue(boss, PGBOSS_QUEUE, { retryLimit: 0, expireInSeconds: BOSS_EXPIRE_SECONDS });
    this.boss = boss;
  }

  protected override async stopDispatch(): Promise<void> {
    const boss = this.boss;
    this.boss = undefined;
    await boss?.stop({ graceful: false, wait: true, timeout: 5000 });
  }

  protected override async dispatchNew(job: Job): Promise<void> {
    try {
      if (!this.boss) throw new Error('pg-boss is not started');
      await this.boss.send(PGBOSS_QUEUE, { jobId: job.id }, { retryLimit: 0, expireInSeconds: BOSS_EXPIRE_SECONDS });
    } catch (err) {
      this.log.error({ err, jobId: job.id }, 'could not put a job on the queue');
      const message = 'The job could not be put on the queue; try again.';
      await finishJob(this.db, job.id, { state: 'failed', result: null, error: message, message }, ['queued']);
      throw new AppError(503, 'queue_unavailable', message);
    }
  }

  /** Takes queue entries while there is room; each one's row is claimed before its handler runs. */
  protected override async pump(): Promise<void> {
    while (this.started && !this.closing && this.boss && this.running.size < this.opts.concurrency) {
      const boss = this.boss;
      const [entry] = await boss.fetch<{ jobId?: string }>(PGBOSS_QUEUE, { batchSize: 1 });
      if (!entry) return;
      const id = typeof entry.data?.jobId === 'string' ? entry.data.jobId : undefined;
      const job = id ? await claimJob(this.db, { id }) : undefined;
      if (!job) {
        // cancelled while queued, already run, or not ours: nothing to do
        await boss.complete(PGBOSS_QUEUE, entry.id);
        continue;
      }
      if (!this.handlers.has(job.kind)) {
        const message = `No worker here can run ${job.kind} jobs.`;
        await finishJob(this.db, job.id, { state: 'failed', result: null, error: message, message }, ['running']);
        await boss.complete(PGBOSS_QUEUE, entry.id);
        continue;
      }
      this.startJob(job, async () => {
        await boss.complete(PGBOSS_QUEUE, entry.id).catch((err: unknown) => this.log.warn({ err, jobId: job.id }, 'could not complete the pg-boss entry'));
      });
    }
  }
}

/** PostgreSQL's errors of two creators racing: deadlock_detected, unique_violation, duplicate_table. */
const RACE_CODES = new Set(['40P01', '23505', '42P07']);

/**
 * The queue, created unless it exists. pg-boss's createQueue is not safe against itself: its
 * create_queue() inserts the queue row, then creates and attaches a partition of the job table
 * in one transaction, outside pg-boss's advisory lock, so instances starting at the same moment
 * (a deploy, a district's web instances and workers restarted together) can deadlock and
 * PostgreSQL aborts one of them ("deadlock detected", seen in CI with two instances starting
 * together). The aborted one asks again: by then the winner has committed and the queue exists.
 */
export async function ensureQueue(
  boss: Pick<PgBoss, 'getQueue' | 'createQueue'>,
  name: string,
  options: Omit<PgBoss.Queue, 'name'>,
  attempts = 5,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      if (await boss.getQueue(name)) return;
      await boss.createQueue(name, { ...options, name });
      return;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (attempt >= attempts || typeof code !== 'string' || !RACE_CODES.has(code)) throw err;
      // a little apart, so racing instances do not meet again
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
    }
  }
}
