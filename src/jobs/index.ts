import type { AppContext, AppDeps } from '../context.js';
import type { Database } from '../db/database.js';
import { registerJobRoutes } from './jobs.routes.js';
import { registerJobSocket } from './jobs.ws.js';
import { LocalJobQueue } from './local-queue.js';
import type { LocalQueueOptions } from './jobs.types.js';
import { PgBossJobQueue } from './pgboss-queue.js';
import type { JobQueue } from './jobs.types.js';

/** Jobs: the admin's routes (list, one job, cancel) and the /ws/jobs progress socket. The queue itself is built by createJobQueue. */
export function registerJobs(ctx: AppContext): void {
  registerJobRoutes(ctx);
  registerJobSocket(ctx);
}

/**
 * The queue for this process. `concurrency` is how many jobs it works at once (0: it only
 * enqueues). `embedded`: the one process does everything (a web instance that works jobs), so
 * on close it cancels the queued jobs too; a worker, or a web instance beside workers, leaves
 * them for the others.
 */
export function createJobQueue(deps: AppDeps, opts: { concurrency: number; embedded: boolean }): JobQueue {
  const { config, logger } = deps;
  const db: Database = deps.db;
  const options: LocalQueueOptions = {
    concurrency: opts.concurrency,
    heartbeatMs: config.JOB_HEARTBEAT_SECONDS * 1000,
    staleMs: Math.max(config.JOB_HEARTBEAT_TIMEOUT_SECONDS, 3 * config.JOB_HEARTBEAT_SECONDS) * 1000,
    cancelQueuedOnClose: opts.embedded,
    soleWorker: opts.embedded,
  };
  if (db.engine === 'postgres') {
    const url = config.DATABASE_URL;
    if (!url) throw new Error('The database is PostgreSQL but DATABASE_URL is not set: pg-boss needs it');
    // other instances share the queue: a closing instance leaves the queued jobs to them
    return new PgBossJobQueue(db, logger, { ...options, cancelQueuedOnClose: false, soleWorker: false, connectionString: url });
  }
  return new LocalJobQueue(db, logger, options);
}
