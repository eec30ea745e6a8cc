import type { Express } from 'express';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { Logger } from './logger.js';
import type { Api } from './http/api.js';
import type { UpgradeRegistry } from './http/upgrade.js';
import type { JobQueue } from './jobs/jobs.types.js';

/** What createApp needs from outside: tests build their own. */
export interface AppDeps {
  config: Config;
  /** the data layer (SQLite by default; PostgreSQL with DATABASE_URL): every query is async */
  db: Database;
  logger: Logger;
}

/**
 * What each feature's register function receives: the dependencies plus the places to hook in
 * (API routes, plain Express routes for pages and media, WebSocket upgrades, start-up and close).
 */
export interface AppContext extends AppDeps {
  api: Api;
  /** for routes that are not JSON API routes (pages, media files); API routes go through `api` */
  app: Express;
  upgrades: UpgradeRegistry;
  /** background jobs (downloads, frames): features register handlers and enqueue */
  jobs: JobQueue;
  /** aborted when the app starts closing: long request work (recognitions) stops with it */
  shutdownSignal: AbortSignal;
  /** work to finish before the app serves (imports, recovery); awaited by createApp */
  onStart(task: () => Promise<void> | void): void;
  /** cleanup on shutdown (cancel runs, close sockets) */
  onClose(task: () => Promise<void> | void): void;
}
