import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAdmin, startTestApp, type Agent, type TestApp } from '../helpers/app.js';
import { makeClip } from '../fixtures/media.js';
import { addVideo } from '../fixtures/videos.js';
import { cookieFor } from '../questions/ws-client.js';
import { ORPHAN_REASON } from '../../src/jobs/local-queue.js';
import { CANCEL_MESSAGES } from '../../src/jobs/jobs.types.js';
import { groupAlive } from '../../src/pipeline/process-runner.js';
import { processesMentioning, startSlowServer, until, type SlowServer } from './slow-server.js';
import { startWorker, type WorkerProcess } from './worker-process.js';

/**
 * SQLite, one machine: a web instance with JOB_CONCURRENCY=0 (it only enqueues) and a real
 * `npm run worker` process on the same DATA_DIR. The worker claims from the same SQLite file;
 * the web instance answers the synchronous routes, shows the worker's progress on /ws/jobs,
 * cancels on the worker, and fails the job of a SIGKILLed worker once its heartbeat is stale
 * (short settings here: a heartbeat a second, stale after 3 s). No timed assertion: every wait
 * polls until the state changes, bounded by the test's time-out.
 */
const SHARED = { JOB_HEARTBEAT_SECONDS: '1', JOB_HEARTBEAT_TIMEOUT_SECONDS: '3', DOWNLOAD_EXTRA_HOSTS: '127.0.0.1', DOWNLOAD_AUTH_MODE: 'none' };
let root: string;
let slow: SlowServer;
let web: TestApp;
let admin: Agent;
let base: string;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-worker-'));
  makeClip(path.join(root, 'slow.mp4'), { seconds: 30, width: 320, height: 240, fps: 25 });
  makeClip(path.join(root, 'frames.mp4'), { seconds: 3 });
  slow = await startSlowServer(
    { 'slowa.mp4': path.join(root, 'slow.mp4'), 'slowb.mp4': path.join(root, 'slow.mp4'), 'slowc.mp4': path.join(root, 'slow.mp4') },
    { chunkBytes: 16 * 1024, intervalMs: 250 },
  );
  web = await startTestApp({ ...SHARED, JOB_CONCURRENCY: '0' });
  admin = await loginAdmin(web.agent());
  base = await web.listen();
}, 120_000);

afterAll(async () => {
  await worker?.stop('SIGKILL');
  // a SIGKILLed worker cannot stop its yt-dlp (a process group of its own): the test does
  for (const p of processesMentioning(web.dataDir)) {
    try {
      process.kill(-p.pgid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  await web?.close();
  await slow?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const job = async (id: string) =>
  (await admin.get(`/api/admin/jobs/${id}`)).body.job as { state: string; progress: number; error: string | null; message: string; result: unknown };
const untilJob = (id: string, ok: (j: Awaited<ReturnType<typeof job>>) => boolean) =>
  until(async () => {
    const j = await job(id);
    return ok(j) ? j : undefined;
  }, 200);
const workerEnv = () => ({ ...SHARED, DATA_DIR: web.dataDir, JOB_CONCURRENCY: '1' });

describe('a web instance with JOB_CONCURRENCY=0 and a worker process on one SQLite file', () => {
  it('the web instance only enqueues; the worker does the job and the synchronous route answers its result', async () => {
    await addVideo(web.db, web.dataDir, { id: 'framesvid', videoFile: path.join(root, 'frames.mp4'), duration: 3 });
    const queued = await admin.post('/api/frames/framesvid').set('Prefer', 'respond-async');
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    // nobody works jobs yet: it stays queued
    expect(await job(queued.body.job_id)).toMatchObject({ state: 'queued' });

    worker = await startWorker(workerEnv());
    const done = await untilJob(queued.body.job_id, (j) => j.state !== 'queued' && j.state !== 'running');
    expect(done).toMatchObject({ state: 'succeeded', progress: 1, result: { success: true, video_id: 'framesvid', count: 3 } });
    expect((await web.db.first<{ frame_count: number }>('SELECT frame_count FROM videos WHERE id = ?', ['framesvid']))!.frame_count).toBe(3);

    // the contract's synchronous route waits for a job another process runs
    const sync = await admin.post('/api/frames/framesvid');
    expect(sync.status, JSON.stringify(sync.body)).toBe(200);
    expect(sync.body).toMatchObject({ success: true, video_id: 'framesvid', count: 3 });
    const row = (await web.db.first<{ state: string; result: string }>(`SELECT state, result FROM jobs WHERE kind = 'frames' ORDER BY created_at DESC LIMIT 1`))!;
    expect(row.state).toBe('succeeded');
    expect(JSON.parse(row.result)).toEqual(sync.body);
  }, 120_000);

  it("the worker's progress reaches the web instance's /ws/jobs, and a cancel there stops yt-dlp on the worker", async () => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/jobs`, { headers: { cookie: await cookieFor(base, 'admin') } });
    const messages: { type: string; job?: { job_id: string; state: string; progress: number } }[] = [];
    ws.on('message', (d) => messages.push(JSON.parse(d.toString())));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const res = await admin
      .post('/api/download')
      .set('Prefer', 'respond-async')
      .type('form')
      .send({ url: `${slow.url}/slowa.mp4` });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const id = res.body.job_id as string;
    await untilJob(id, (j) => j.state === 'running' && j.progress > 0.06);
    await until(() => (messages.some((m) => m.job?.job_id === id && m.job.state === 'running' && m.job.progress > 0.06) ? true : undefined));
    const ytdlp = processesMentioning(web.dataDir).filter((p) => p.cmd.includes('yt-dlp'));
    expect(ytdlp.length).toBeGreaterThan(0);

    // a second worker starting now must not take the running download for a crash's leftovers
    const incoming = () => fs.readdirSync(path.join(web.dataDir, 'videos')).filter((n) => n.startsWith('.incoming'));
    expect(incoming()).toHaveLength(1);
    const second = await startWorker(workerEnv());
    expect(second.output()).toMatch(/start-up cleanup of interrupted downloads is skipped/);
    expect(await second.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(incoming()).toHaveLength(1);
    expect(await job(id)).toMatchObject({ state: 'running' });

    const cancel = await admin.post(`/api/admin/jobs/${id}/cancel`);
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const done = await untilJob(id, (j) => j.state !== 'running');
    expect(done).toMatchObject({ state: 'cancelled', error: CANCEL_MESSAGES.admin, result: { success: false, error_code: 'cancelled' } });
    for (const p of ytdlp) expect(groupAlive(p.pgid), p.cmd).toBe(false);
    expect(await web.db.first('SELECT id FROM videos WHERE id = ?', ['slowa'])).toBeUndefined();
    await until(() => (messages.some((m) => m.job?.job_id === id && m.job.state === 'cancelled') ? true : undefined));
    ws.close();
  }, 120_000);

  it('a worker killed with SIGKILL mid-job: the job is failed with a reason once its heartbeat is stale; SIGTERM stops a worker with exit 0', async () => {
    const res = await admin
      .post('/api/download')
      .set('Prefer', 'respond-async')
      .type('form')
      .send({ url: `${slow.url}/slowb.mp4` });
    const id = res.body.job_id as string;
    await untilJob(id, (j) => j.state === 'running' && j.progress > 0.06);
    expect(await worker!.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    worker = undefined;
    const failed = await untilJob(id, (j) => j.state !== 'running');
    expect(failed).toMatchObject({ state: 'failed', error: ORPHAN_REASON, message: ORPHAN_REASON });
    const row = (await web.db.first<{ state: string; finished_at: string | null }>('SELECT state, finished_at FROM jobs WHERE id = ?', [id]))!;
    expect(row).toMatchObject({ state: 'failed', finished_at: expect.any(String) });
    // the dead worker's yt-dlp is an orphan of this test now: stop it
    for (const p of processesMentioning(web.dataDir)) process.kill(-p.pgid, 'SIGKILL');

    // a new worker sweeps what the dead one left and runs the next job; SIGTERM cancels it with the shutdown's reason
    worker = await startWorker(workerEnv());
    expect(fs.readdirSync(path.join(web.dataDir, 'videos')).filter((n) => n.startsWith('.incoming'))).toEqual([]);
    const next = await admin
      .post('/api/download')
      .set('Prefer', 'respond-async')
      .type('form')
      .send({ url: `${slow.url}/slowc.mp4` });
    await untilJob(next.body.job_id, (j) => j.state === 'running' && j.progress > 0.06);
    const exit = await worker.stop('SIGTERM');
    expect(exit, worker.output()).toEqual({ code: 0, signal: null });
    worker = undefined;
    expect(await job(next.body.job_id)).toMatchObject({ state: 'cancelled', error: CANCEL_MESSAGES.shutdown });
    expect(processesMentioning(web.dataDir)).toEqual([]);
  }, 180_000);
});
