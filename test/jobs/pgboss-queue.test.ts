import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { PgDatabase } from '../../src/db/postgres.js';
import { migratePostgres } from '../../src/db/migrate.js';
import { ORPHAN_REASON } from '../../src/jobs/local-queue.js';
import type { PgBossJobQueue } from '../../src/jobs/pgboss-queue.js';
import { CANCEL_MESSAGES, type Job, type Json } from '../../src/jobs/jobs.types.js';
import { createTestDatabase } from '../helpers/pg-cluster.js';
import { until } from './slow-server.js';
import { pgQueue, type StepInput } from './pg-jobs.js';
import { startWorker, type WorkerProcess } from './worker-process.js';

/**
 * The pg-boss queue on the test run's PostgreSQL cluster. The instance in this test process has
 * JOB_CONCURRENCY=0 (a web instance: it only enqueues); the jobs run in real worker processes
 * (test/jobs/pg-worker.ts) with the test's step handler. Short heartbeat settings (300 ms, stale
 * after 1.5 s); no timed assertion: each wait polls until the state changes.
 */
const pgUrl = inject('pgUrl');
let database: { url: string; drop(): Promise<void> };
let db: PgDatabase;
let web: PgBossJobQueue;
let marks: string;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  if (!pgUrl) return;
  database = await createTestDatabase(pgUrl, 'pgboss');
  db = new PgDatabase({ url: database.url, poolMax: 4 });
  // the real migrations, 005 and 009 (jobs) among them
  await migratePostgres(db);
  web = pgQueue(db, database.url, 0);
  await web.start();
}, 120_000);

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop('SIGKILL')));
});

afterAll(async () => {
  if (!pgUrl) return;
  await web?.close();
  await db?.close();
  await database?.drop();
  if (marks) fs.rmSync(marks, { recursive: true, force: true });
});

const startPgWorker = async (concurrency = 1) => {
  const w = await startWorker({}, 'test/jobs/pg-worker.ts', [database.url, String(concurrency)]);
  workers.push(w);
  return w;
};
const input = (steps: number, stepMs: number): Json => {
  marks ??= fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-pgboss-'));
  const i: StepInput = { steps, stepMs, marks };
  return { ...i };
};
const row = (id: string) =>
  db.first<{ state: string; progress: number; error: string | null; finished_at: string | null; heartbeat_at: string | null }>(
    'SELECT * FROM jobs WHERE id = ?',
    [id],
  );
const runsOf = (id: string) => {
  const file = path.join(marks, `${id}.runs`);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : [];
};

describe.skipIf(!pgUrl)('jobs on pg-boss across processes', () => {
  it('a job enqueued on an instance that only enqueues is worked by a worker process; progress and the result are seen by the first', async () => {
    const events: Job[] = [];
    const off = web.onProgress((j) => events.push(j));
    const job = await web.enqueue('frames', input(4, 150));
    expect(job).toMatchObject({ state: 'queued', progress: 0 });
    // nobody works jobs yet: it waits in the queue (this instance has concurrency 0)
    expect((await row(job.id))!.state).toBe('queued');

    const w = await startPgWorker();
    const done = await web.wait(job.id);
    off();
    expect(done).toMatchObject({ state: 'succeeded', progress: 1, error: null, message: 'Done', result: { pid: w.proc.pid, steps: 4 } });
    expect(await row(job.id)).toMatchObject({ state: 'succeeded', progress: 1, finished_at: expect.any(String), heartbeat_at: expect.any(String) });
    expect(runsOf(job.id)).toEqual([String(w.proc.pid)]);
    // this instance heard the worker's progress (the watch loop), then the end
    const mine = events.filter((e) => e.id === job.id);
    expect(mine.some((e) => e.state === 'running' && e.progress > 0 && e.progress < 1 && /^Step \d of 4$/.test(e.message))).toBe(true);
    expect(mine.at(-1)).toMatchObject({ state: 'succeeded', progress: 1 });
  }, 60_000);

  it('a cancel on the first instance stops the handler on the worker', async () => {
    await startPgWorker();
    const job = await web.enqueue('frames', input(400, 100));
    await until(async () => ((await row(job.id))!.progress > 0 ? true : undefined));
    const asked = await web.cancel(job.id, 'admin');
    expect(asked).toMatchObject({ state: 'running', message: 'Cancelling', cancelRequested: 'admin' });
    const done = await web.wait(job.id);
    expect(done).toMatchObject({ state: 'cancelled', error: CANCEL_MESSAGES.admin });
    // the handler on the worker saw its signal aborted, with the reason
    expect(fs.readFileSync(path.join(marks, `${job.id}.aborted`), 'utf8')).toBe(CANCEL_MESSAGES.admin);
    expect((done.result as { steps: number }).steps).toBeLessThan(400);
    // while the only worker is busy, a queued job is cancelled at once and never runs
    const blocker = await web.enqueue('frames', input(400, 100));
    await until(async () => ((await row(blocker.id))!.state === 'running' ? true : undefined));
    const queued = await web.enqueue('frames', input(1, 10));
    expect(await web.cancel(queued.id)).toMatchObject({ state: 'cancelled', error: CANCEL_MESSAGES.admin });
    await web.cancel(blocker.id);
    expect(await web.wait(blocker.id)).toMatchObject({ state: 'cancelled' });
    expect(runsOf(queued.id)).toEqual([]);
    expect((await row(queued.id))!.state).toBe('cancelled');
  }, 60_000);

  it('a worker killed with SIGKILL mid-job: its job is failed with a reason once the heartbeat is stale, never left running', async () => {
    const w = await startPgWorker();
    const job = await web.enqueue('frames', input(1000, 100));
    await until(async () => ((await row(job.id))?.state === 'running' && runsOf(job.id).length ? true : undefined));
    expect(await w.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const failed = await web.wait(job.id);
    expect(failed).toMatchObject({ state: 'failed', error: ORPHAN_REASON, message: ORPHAN_REASON, finishedAt: expect.any(String) });
    expect(await row(job.id)).toMatchObject({ state: 'failed', error: ORPHAN_REASON });
    expect(await db.first<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs WHERE state = 'running'`)).toEqual({ n: 0 });
  }, 60_000);

  it('with two workers every job runs exactly once, and SIGTERM cancels a worker’s running job with the shutdown reason and exits 0', async () => {
    const [a, b] = [await startPgWorker(2), await startPgWorker(2)];
    const jobs = await Promise.all(Array.from({ length: 12 }, () => web.enqueue('frames', input(2, 50))));
    const done = await Promise.all(jobs.map((j) => web.wait(j.id)));
    for (const d of done) expect(d).toMatchObject({ state: 'succeeded', progress: 1 });
    const pids = new Set<string>();
    for (const j of jobs) {
      const runs = runsOf(j.id);
      expect(runs, j.id).toHaveLength(1);
      pids.add(runs[0]!);
    }
    expect([...pids].every((p) => [String(a.proc.pid), String(b.proc.pid)].includes(p))).toBe(true);
    expect(
      await db.first<{ n: number }>(
        `SELECT COUNT(*) AS n FROM jobs WHERE id IN (${jobs.map(() => '?').join(', ')}) AND state = 'succeeded'`,
        jobs.map((j) => j.id),
      ),
    ).toEqual({ n: 12 });

    // graceful stop of both: the long job is cancelled with the shutdown reason; queued work stays queued for other workers
    const long = await web.enqueue('frames', input(1000, 100));
    await until(async () => ((await row(long.id))?.state === 'running' ? true : undefined));
    const [ea, eb] = await Promise.all([a.stop('SIGTERM'), b.stop('SIGTERM')]);
    expect(ea, a.output()).toEqual({ code: 0, signal: null });
    expect(eb, b.output()).toEqual({ code: 0, signal: null });
    expect(await row(long.id)).toMatchObject({ state: 'cancelled', error: CANCEL_MESSAGES.shutdown });
    const later = await web.enqueue('frames', input(1, 10));
    expect((await row(later.id))!.state).toBe('queued');
    const c = await startPgWorker();
    expect(await web.wait(later.id)).toMatchObject({ state: 'succeeded', result: { pid: c.proc.pid } });
  }, 90_000);
});
