import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExpert, loginAdmin, loginExpert, startTestApp, type Agent, type TestApp } from '../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { makeClip } from '../fixtures/media.js';
import { addVideo } from '../fixtures/videos.js';
import { cookieFor } from '../questions/ws-client.js';
import { processesMentioning, startSlowServer, until, type SlowServer } from './slow-server.js';

/**
 * Downloads and frame extraction as jobs, with the real yt-dlp and ffmpeg: a slow media host on
 * 127.0.0.1 keeps a download running long enough to watch its progress and cancel it.
 * JOB_CONCURRENCY=1, so a second job waits in the queue while the slow download runs.
 */
let root: string;
let slow: SlowServer;
let fx: FixtureServer;
let t: TestApp;
let admin: Agent;
let base: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-jobs-'));
  makeClip(path.join(root, 'slowclip.mp4'), { seconds: 30, width: 320, height: 240, fps: 25 });
  makeClip(path.join(root, 'clip.mp4'), { seconds: 3 });
  makeClip(path.join(root, 'frames.mp4'), { seconds: 4 });
  // about 64 kB/s: a download of slowclip.mp4 takes many seconds
  slow = await startSlowServer({ 'slowclip.mp4': path.join(root, 'slowclip.mp4') }, { chunkBytes: 16 * 1024, intervalMs: 250 });
  fx = await startFixtureServer(root);
  t = await startTestApp({ DOWNLOAD_EXTRA_HOSTS: '127.0.0.1', DOWNLOAD_AUTH_MODE: 'none', JOB_CONCURRENCY: '1' });
  admin = await loginAdmin(t.agent());
  base = await t.listen();
}, 120_000);

afterAll(async () => {
  await t?.close();
  await slow?.close();
  await fx?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const getJob = async (id: string) => {
  const res = await admin.get(`/api/admin/jobs/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.job as Record<string, unknown> & { state: string; progress: number };
};
const jobRow = (id: string) => t.db.first<Record<string, unknown>>('SELECT * FROM jobs WHERE id = ?', [id]);

/** An admin socket on /ws/jobs collecting every message. */
async function openJobSocket(): Promise<{ ws: WebSocket; messages: Record<string, unknown>[]; closed: Promise<{ code: number; reason: string }> }> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/jobs`, { headers: { cookie: await cookieFor(base, 'admin') } });
  const messages: Record<string, unknown>[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(d.toString())));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, messages, closed };
}

describe('a download with Prefer: respond-async, its progress, the queue and cancel', () => {
  it('answers 202 at once, reports progress, queues the next job, and cancel kills yt-dlp leaving nothing', async () => {
    const sock = await openJobSocket();
    const url = `${slow.url}/slowclip.mp4`;
    const res = await admin.post('/api/download').set('Prefer', 'respond-async').type('form').send({ url });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ success: true, job_id: expect.stringMatching(/^[0-9a-f-]{36}$/), message: 'The download was queued.' });
    expect(res.headers['location']).toBe(`/api/admin/jobs/${res.body.job_id}`);
    expect(res.headers['preference-applied']).toBe('respond-async');
    const id = res.body.job_id as string;
    expect(await jobRow(id)).toMatchObject({ kind: 'download', input: JSON.stringify({ url }) });

    // the same link again while it runs is refused with the contract's download body
    const again = await admin.post('/api/download').set('Prefer', 'respond-async').type('form').send({ url });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, error_code: 'download_in_progress' });
    expect((await t.db.first<{ n: number }>(`SELECT count(*) AS n FROM jobs WHERE kind = 'download'`))!.n).toBe(1);

    // yt-dlp's own progress lines move the job forward
    const running = await until(async () => {
      const j = await getJob(id);
      return j.state === 'running' && j.progress > 0.06 ? j : undefined;
    });
    expect(running).toMatchObject({ kind: 'download', video_id: 'slowclip', message: 'Downloading', started_at: expect.any(String), finished_at: null });
    expect(running.progress).toBeLessThan(0.9);
    expect((await jobRow(id))!.progress as number).toBeGreaterThan(0.05);
    const ytdlp = processesMentioning(t.dataDir).filter((p) => p.cmd.includes('yt-dlp'));
    expect(ytdlp.length).toBeGreaterThan(0);

    // a frames job waits for the only worker
    await addVideo(t.db, t.dataDir, { id: 'framesvid', videoFile: path.join(root, 'frames.mp4'), duration: 4 });
    const frames = await admin.post('/api/frames/framesvid').set('Prefer', 'respond-async');
    expect(frames.status, JSON.stringify(frames.body)).toBe(202);
    expect((await getJob(frames.body.job_id)).state).toBe('queued');

    const cancel = await admin.post(`/api/admin/jobs/${id}/cancel`);
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.job.job_id).toBe(id);
    const done = await until(async () => {
      const j = await getJob(id);
      return j.state === 'cancelled' ? j : undefined;
    });
    expect(done).toMatchObject({ error: 'Cancelled by the admin.', finished_at: expect.any(String) });
    expect(done.result).toMatchObject({ success: false, error_code: 'cancelled' });
    // yt-dlp's process group is gone, and so are its partial files and the half-made video row
    expect(processesMentioning(t.dataDir).filter((p) => ytdlp.some((y) => y.pgid === p.pgid) || p.cmd.includes('yt-dlp'))).toEqual([]);
    expect(fs.readdirSync(path.join(t.dataDir, 'videos')).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(await t.db.first('SELECT id FROM videos WHERE id = ?', ['slowclip'])).toBeUndefined();

    // the frames job then gets the worker
    const framesDone = await until(async () => {
      const j = await getJob(frames.body.job_id);
      return ['succeeded', 'failed'].includes(j.state) ? j : undefined;
    });
    expect(framesDone).toMatchObject({ state: 'succeeded', progress: 1, video_id: 'framesvid' });
    expect(framesDone.result).toMatchObject({ success: true, video_id: 'framesvid', count: 4 });
    expect((await t.db.first<{ frame_count: number }>('SELECT frame_count FROM videos WHERE id = ?', ['framesvid']))!.frame_count).toBe(4);

    // a finished job cannot be cancelled
    const late = await admin.post(`/api/admin/jobs/${id}/cancel`);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ success: false, error: 'job_finished' });

    // the socket saw the snapshot, the download's progress and both jobs finish
    const jobEvents = sock.messages.filter((m) => m.type === 'job').map((m) => m.job as Record<string, unknown>);
    expect(sock.messages[0]).toMatchObject({ type: 'snapshot', jobs: expect.any(Array) });
    expect(jobEvents.some((j) => j.job_id === id && j.state === 'running' && (j.progress as number) > 0.05)).toBe(true);
    expect(jobEvents.some((j) => j.job_id === id && j.state === 'cancelled')).toBe(true);
    await until(() =>
      sock.messages.some(
        (m) => (m.job as { job_id?: string; state?: string })?.job_id === frames.body.job_id && (m.job as { state: string }).state === 'succeeded',
      )
        ? true
        : undefined,
    );
    sock.ws.close();
  }, 120_000);
});

describe('the contract routes wait for their job', () => {
  it('POST /api/download answers the download result and leaves a succeeded job with the same result', async () => {
    const res = await admin
      .post('/api/download')
      .type('form')
      .send({ url: `${fx.url}/clip.mp4` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, video_id: 'clip' });
    const row = (await t.db.first<Record<string, unknown>>(`SELECT * FROM jobs WHERE kind = 'download' AND video_id = 'clip'`))!;
    expect(row).toMatchObject({ state: 'succeeded', progress: 1, error: null });
    expect(JSON.parse(row.result as string)).toEqual(res.body);
  }, 60_000);

  it('POST /api/frames/{video_id} answers 404 for an unknown video before any job is made', async () => {
    const before = (await t.db.first<{ n: number }>('SELECT count(*) AS n FROM jobs'))!.n;
    const res = await admin.post('/api/frames/nosuchvideo').set('Prefer', 'respond-async');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: 'video_not_found' });
    expect((await t.db.first<{ n: number }>('SELECT count(*) AS n FROM jobs'))!.n).toBe(before);
  });

  it('an invalid link is refused with 400 before any job is made', async () => {
    const before = (await t.db.first<{ n: number }>('SELECT count(*) AS n FROM jobs'))!.n;
    const res = await admin.post('/api/download').set('Prefer', 'respond-async').type('form').send({ url: 'https://example.com/x' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error_code: 'invalid_url' });
    expect((await t.db.first<{ n: number }>('SELECT count(*) AS n FROM jobs'))!.n).toBe(before);
  });
});

describe('GET /api/admin/jobs and GET /api/admin/jobs/{job_id}', () => {
  it('lists jobs newest first, filtered by kind and state', async () => {
    const res = await admin.get('/api/admin/jobs?kind=frames&state=succeeded');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.count).toBe(res.body.jobs.length);
    expect(res.body.jobs.length).toBeGreaterThan(0);
    for (const j of res.body.jobs) expect(j).toMatchObject({ kind: 'frames', state: 'succeeded', progress: 1 });
    const all = await admin.get('/api/admin/jobs?limit=2');
    expect(all.body.jobs).toHaveLength(2);
    const created = all.body.jobs.map((j: { created_at: string }) => j.created_at);
    expect([...created].sort().reverse()).toEqual(created);
  });

  it('refuses a bad filter, a bad id and an unknown id', async () => {
    const bad = await admin.get('/api/admin/jobs?state=done&limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/state/);
    expect(bad.body.message).toMatch(/limit/);
    const badId = await admin.get('/api/admin/jobs/..%2F..%2Fetc');
    expect(badId.status).toBe(400);
    const unknown = await admin.get('/api/admin/jobs/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: 'job_not_found' });
    const cancelUnknown = await admin.post('/api/admin/jobs/00000000-0000-4000-8000-000000000000/cancel');
    expect(cancelUnknown.status).toBe(404);
  });

  it('is for the admin only: 401 anonymous, 403 expert, on the routes and on /ws/jobs', async () => {
    const expert = await createExpert(t);
    const expertAgent = await loginExpert(t.agent(), expert.code);
    const anyId = (await admin.get('/api/admin/jobs?limit=1')).body.jobs[0].job_id as string;
    for (const [method, url] of [
      ['get', '/api/admin/jobs'],
      ['get', `/api/admin/jobs/${anyId}`],
      ['post', `/api/admin/jobs/${anyId}/cancel`],
    ] as const) {
      expect((await t.agent()[method](url)).status).toBe(401);
      expect((await expertAgent[method](url)).status).toBe(403);
    }
    const refused = async (cookie: string | null) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/jobs`, { headers: cookie ? { cookie } : {} });
        ws.once('unexpected-response', (_req, r) => resolve(r.statusCode ?? -1));
        ws.once('open', () => {
          ws.close();
          resolve(101);
        });
      });
    expect(await refused(null)).toBe(401);
    expect(await refused(await cookieFor(base, 'expert', expert.code))).toBe(403);
    // a job is unchanged by the refused cancel
    expect((await getJob(anyId)).state).not.toBe('cancelled');
  });
});
