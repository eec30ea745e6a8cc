import type { AppContext, AppDeps } from '../context.js';
import { registerJobRoutes } from './jobs.routes.js';
import { registerJobSocket } from './jobs.ws.js';
import { LocalJobQueue } from './local-queue.js';
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
  const { config, db, logger } = deps;
  return new LocalJobQueue(db, logger, {
    concurrency: opts.concurrency,
    heartbeatMs: config.JOB_HEARTBEAT_SECONDS * 1000,
    staleMs: Math.max(config.JOB_HEARTBEAT_TIMEOUT_SECONDS, 3 * config.JOB_HEARTBEAT_SECONDS) * 1000,
    cancelQueuedOnClose: opts.embedded,
  });
}
