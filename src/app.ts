import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express, type RequestHandler } from 'express';
import compression from 'compression';
import { Api } from './http/api.js';
import { UpgradeRegistry } from './http/upgrade.js';
import { apiNotFound, errorHandler } from './http/error-handler.js';
import { securityHeaders } from './http/security-headers.js';
import { requestLogger } from './http/request-log.js';
import { renewSessionCookie } from './http/session.js';
import { sessionLayer } from './http/session-layer.js';
import { mountStaticFiles } from './http/static-files.js';
import { DatabaseSessionStore } from './db/session-store.js';
import { FEATURES } from './features.js';
import { createJobQueue } from './jobs/index.js';
import { registerJobHandlers } from './jobs/handlers.js';
import type { AppContext, AppDeps } from './context.js';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SESSION_COOKIE = 'kvq.sid';

export interface BuiltApp {
  app: Express;
  api: Api;
  upgrades: UpgradeRegistry;
  sessionParser: RequestHandler;
  close(): Promise<void>;
}

/**
 * The composition root: middleware, every feature's routes, pages and the error renderer,
 * built from explicit dependencies (tests pass a temp SQLite file and their own config).
 */
export async function createApp(deps: AppDeps): Promise<BuiltApp> {
  const { config, db, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  if (config.TRUST_PROXY) app.set('trust proxy', 1);
  app.set('view engine', 'ejs');
  app.set('views', path.join(ROOT_DIR, 'views'));

  const sessionParser = sessionLayer({
    name: SESSION_COOKIE,
    secret: config.SESSION_SECRET,
    store: new DatabaseSessionStore(db, config.SESSION_MAX_AGE_HOURS * 3600_000),
    maxAgeMs: config.SESSION_MAX_AGE_HOURS * 3600_000,
    secure: config.COOKIE_SECURE === 'auto' ? 'auto' : config.COOKIE_SECURE === 'true',
    onSaveError: (err) => logger.error({ err }, 'session not saved'),
  });

  app.use(requestLogger(logger, config.TRUST_PROXY));
  // gzip or brotli (as the browser asks) for pages, JSON and static files; media is not
  // compressible and passes through (Range requests keep working). A client that accepts no
  // encoding (scripts, health checks, load generators, a proxy that compresses itself) skips the
  // middleware's per-response wrapping of writeHead/write/end, which it pays even when it then
  // sends identity (measured: about 5% of a logged-in API call's CPU); Vary is still sent.
  const compress = compression();
  app.use((req, res, next) => {
    if (req.headers['accept-encoding']) return compress(req, res, next);
    res.vary('Accept-Encoding');
    next();
  });
  app.use(securityHeaders);
  // before the body parsers and the session: a script or icon needs neither (no session read
  // from SQLite for each of a page's files)
  mountStaticFiles(app, path.join(ROOT_DIR, 'public'));
  app.use(express.json({ limit: '2mb' }));
  app.use(express.urlencoded({ extended: false, limit: '100kb' }));
  app.use(sessionParser);
  app.use(renewSessionCookie(Math.min(5 * 60_000, (config.SESSION_MAX_AGE_HOURS * 3600_000) / 10)));

  const api = new Api();
  // before the pages the features add to the app: an API call does not walk the page routes
  // (the routes are added to api.router as the features register, below)
  app.use(api.router);
  const upgrades = new UpgradeRegistry(sessionParser);
  const startTasks: (() => Promise<void> | void)[] = [];
  const closeTasks: (() => Promise<void> | void)[] = [];
  // JOB_CONCURRENCY=0: this instance only enqueues; `npm run worker` processes do the jobs
  const jobs = createJobQueue(deps, { concurrency: config.JOB_CONCURRENCY, embedded: config.JOB_CONCURRENCY > 0 });
  const shutdown = new AbortController();
  const ctx: AppContext = {
    ...deps,
    api,
    app,
    upgrades,
    jobs,
    shutdownSignal: shutdown.signal,
    onStart: (t) => startTasks.push(t),
    onClose: (t) => closeTasks.push(t),
  };
  for (const register of FEATURES) register(ctx);
  if (config.JOB_CONCURRENCY > 0) registerJobHandlers(ctx);

  app.use('/api', apiNotFound);
  app.use(errorHandler(logger));

  for (const task of startTasks) await task();
  // after the start tasks (recovery, sample import): a job never races them
  await jobs.start();

  let closed: Promise<void> | undefined;
  return {
    app,
    api,
    upgrades,
    sessionParser,
    /**
     * The close path, in order: long request work is told to stop (recognitions), jobs are
     * cancelled and awaited (their process groups killed, partial files removed, final states
     * pushed to the job sockets), then each feature's close task, last registered first
     * (WebSocket clients get 1001). The caller closes SQLite after this resolves.
     */
    close() {
      closed ??= (async () => {
        shutdown.abort();
        await jobs.close();
        for (const task of closeTasks.reverse()) await task();
      })();
      return closed;
    },
  };
}
