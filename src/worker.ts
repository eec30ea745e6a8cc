import { ConfigError, loadConfig, readEnv, type Config } from './config.js';
import { openAppDatabase } from './db/open.js';
import { createLogger } from './logger.js';
import { createJobQueue } from './jobs/index.js';
import { registerJobHandlers, type JobHandlerContext } from './jobs/handlers.js';
import { KILL_GRACE_MS } from './pipeline/process-runner.js';

/**
 * `npm run worker`: a process that only works jobs (downloads, frames): no HTTP server. It
 * shares the queue with the web instances through the database: on PostgreSQL any number of
 * workers on any machines; on SQLite one worker beside a web instance with JOB_CONCURRENCY=0 on
 * the same DATA_DIR (docs/jobs.md). JOB_CONCURRENCY is how many jobs it runs at once (default 1
 * here; 0 makes no sense for a worker and is refused). SIGTERM/SIGINT: running jobs are
 * cancelled with the shutdown reason (process groups killed, partial files removed), queued
 * ones stay for the other workers, the database is closed, exit 0.
 */
async function main(): Promise<void> {
  const env = readEnv(process.env);
  let config: Config;
  try {
    config = loadConfig({ ...env, JOB_CONCURRENCY: env.JOB_CONCURRENCY?.trim() ? env.JOB_CONCURRENCY : '1' });
    if (config.JOB_CONCURRENCY === 0)
      throw new ConfigError(['JOB_CONCURRENCY: must be at least 1 for a worker (0 means "only enqueue", which is for web instances)']);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nFix these settings (environment or .env; see .env.example) and start again.\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.LOG_LEVEL).child({ role: 'worker' });
  // SQLite in DATA_DIR, or PostgreSQL with DATABASE_URL (then the queue is pg-boss)
  const opened = await openAppDatabase(config);
  config = opened.config;
  const db = opened.db;
  const deps = { config, db, logger };
  const jobs = createJobQueue(deps, { concurrency: config.JOB_CONCURRENCY, embedded: false });
  const startTasks: (() => Promise<void> | void)[] = [];
  const ctx: JobHandlerContext = { ...deps, jobs, onStart: (t) => startTasks.push(t) };
  registerJobHandlers(ctx);
  for (const task of startTasks) await task();
  await jobs.start();
  // the queue's own timers do not keep a process alive; this one does, until the shutdown
  const alive = setInterval(() => undefined, 1 << 30);
  logger.info({ concurrency: config.JOB_CONCURRENCY, engine: db.engine }, 'worker ready');
  process.stderr.write(`\n  Kids video quiz worker: working jobs (${config.JOB_CONCURRENCY} at once). Stop with Ctrl-C.\n\n`);

  let stopping: Promise<void> | undefined;
  const stop = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'already stopping');
      return;
    }
    logger.info({ signal }, 'worker stopping: cancelling running jobs');
    // jobs stop within the kill grace of their process groups; past it plus a margin, something is stuck
    const stuck = setTimeout(() => {
      logger.error({ signal }, 'worker shutdown is stuck; exiting anyway');
      process.exit(1);
    }, KILL_GRACE_MS + 15_000);
    stuck.unref();
    stopping = (async () => {
      await jobs.close();
      await db.close();
      clearInterval(alive);
      logger.info('worker stopped');
      process.exit(0);
    })();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`Could not start the worker: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
