import type http from 'node:http';
import type { Logger } from '../logger.js';
import { KILL_GRACE_MS } from '../pipeline/process-runner.js';

export interface ShutdownPlan {
  server: http.Server;
  /** how long in-flight requests get to finish (SHUTDOWN_DRAIN_MS) */
  drainMs: number;
  /** the app's close path: jobs cancelled and awaited, sockets told, features closed */
  closeApp: () => Promise<void>;
  /** SQLite, closed last */
  closeDb: () => void | Promise<void>;
  logger: Logger;
  /** exit (process.exit in the server; tests of this module may pass their own) */
  exit: (code: number) => void;
}

/** Beyond drain + the kill grace of child processes, something is stuck: this much more, then exit 1. */
const STUCK_MARGIN_MS = 15_000;
/** after the jobs are cancelled, how long the requests that waited for them get to send their answer */
const ANSWER_MS = 2000;

/**
 * Counts in-flight requests and, once stopping, asks clients to close keep-alive connections.
 * Install it right after the server is created.
 */
export function trackRequests(server: http.Server): { active: () => number; stopping: () => void; settled: (ms: number) => Promise<void> } {
  let active = 0;
  let stopping = false;
  const waiters = new Set<() => void>();
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    active++;
    if (stopping) res.setHeader('Connection', 'close');
    res.on('close', () => {
      active--;
      if (active === 0) for (const w of waiters) w();
    });
  });
  return {
    active: () => active,
    stopping: () => {
      stopping = true;
    },
    /** resolves when no request is in flight, or after `ms` */
    settled: (ms) =>
      new Promise<void>((resolve) => {
        if (active === 0) return resolve();
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        waiters.add(done);
      }),
  };
}

/**
 * SIGTERM / SIGINT: stop accepting; let in-flight requests finish within the drain time; then
 * abort long work through the app's close path (jobs cancelled, their process groups killed
 * with SIGTERM then SIGKILL, partial files removed, WebSocket clients told with 1001,
 * recognitions stopped); give the requests that waited for a job a moment to send their answer;
 * close the remaining connections; close SQLite last; exit 0. A second signal while this runs
 * is logged and ignored; a shutdown stuck past drain + kill grace + a margin exits 1.
 */
export function installShutdown(plan: ShutdownPlan, requests: ReturnType<typeof trackRequests>): (signal: string) => Promise<void> {
  let running: Promise<void> | undefined;
  const run = async (signal: string) => {
    const { server, logger } = plan;
    const started = Date.now();
    const stuck = setTimeout(() => {
      logger.error({ signal }, 'shutdown is stuck; exiting anyway');
      plan.exit(1);
    }, plan.drainMs + KILL_GRACE_MS + STUCK_MARGIN_MS);
    stuck.unref();

    logger.info({ signal, inFlight: requests.active(), drainMs: plan.drainMs }, 'shutting down: no new connections, draining requests');
    requests.stopping();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await requests.settled(plan.drainMs);

    if (requests.active() > 0) logger.warn({ inFlight: requests.active() }, 'drain time over: cancelling the work they wait for');
    try {
      await plan.closeApp();
    } catch (err) {
      logger.error({ err }, 'closing the app failed');
    }
    await requests.settled(ANSWER_MS);
    server.closeAllConnections();
    await closed;
    try {
      await plan.closeDb();
    } catch (err) {
      logger.error({ err }, 'closing the database failed');
    }
    clearTimeout(stuck);
    logger.info({ ms: Date.now() - started }, 'shut down');
    plan.exit(0);
  };
  return (signal: string) => {
    if (running) {
      plan.logger.warn({ signal }, 'already shutting down');
      return running;
    }
    running = run(signal);
    return running;
  };
}
