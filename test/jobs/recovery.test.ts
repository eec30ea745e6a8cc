import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { loginAdmin, startTestApp } from '../helpers/app.js';
import { makeClip } from '../fixtures/media.js';
import { addVideo } from '../fixtures/videos.js';
import { cookieFor } from '../questions/ws-client.js';
import { ORPHAN_REASON } from '../../src/jobs/local-queue.js';
import { openDatabase } from '../../src/db/database.js';
import { until } from './slow-server.js';

describe('start-up after a crash', () => {
  it('marks a job left running as failed with the reason, removes its partial files, and runs the queued ones', async () => {
    const clip = makeClip(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-jobclip-')), 'c.mp4'), { seconds: 2 });
    // what a killed process leaves behind, written straight into a data dir before the start:
    // a running download with its temp dir and half-made row, and a queued job
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-'));
    const videos = path.join(dataDir, 'videos');
    const db = openDatabase(path.join(dataDir, 'app.sqlite'));
    await addVideo(db, dataDir, { id: 'queuedvid', videoFile: clip, duration: 2 });
    // its heartbeat is fresh (the crash was a moment ago): the embedded server, the only process
    // working jobs, still knows at once that it is an orphan
    await db.run(
      `INSERT INTO jobs (id, kind, video_id, state, progress, input, started_at, heartbeat_at) VALUES ('11111111-1111-4111-8111-111111111111', 'download', 'crashed', 'running', 0.4, '{"url":"http://127.0.0.1:9/x.mp4"}', '2026-01-01T00:00:00.000Z', ?)`,
      [new Date().toISOString()],
    );
    await db.run(`INSERT INTO jobs (id, kind, video_id, state, input) VALUES ('22222222-2222-4222-8222-222222222222', 'frames', 'queuedvid', 'queued', '{}')`);
    await db.run("INSERT INTO videos (id, title, state) VALUES ('crashed', 'Crashed', 'downloading')");
    void db.close();
    fs.mkdirSync(path.join(videos, '.incoming.dl-999', 'attempt-none-default'), { recursive: true });
    fs.writeFileSync(path.join(videos, '.incoming.dl-999', 'attempt-none-default', 'video.mp4.part'), 'partial');

    const t = await startTestApp({}, dataDir);
    try {
      const admin = await loginAdmin(t.agent());
      const orphan = await admin.get('/api/admin/jobs/11111111-1111-4111-8111-111111111111');
      expect(orphan.body.job).toMatchObject({ state: 'failed', error: ORPHAN_REASON, message: ORPHAN_REASON, progress: 0.4, finished_at: expect.any(String) });
      expect(fs.readdirSync(videos).filter((n) => n.startsWith('.'))).toEqual([]);
      expect(await t.db.first('SELECT id FROM videos WHERE id = ?', ['crashed'])).toBeUndefined();
      // the queued job never started, so it simply runs now
      const done = await until(async () => {
        const r = await admin.get('/api/admin/jobs/22222222-2222-4222-8222-222222222222');
        return ['succeeded', 'failed', 'cancelled'].includes(r.body.job.state) ? r.body.job : undefined;
      });
      expect(done).toMatchObject({ state: 'succeeded', result: { success: true, video_id: 'queuedvid', count: 2 } });
    } finally {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(path.dirname(clip), { recursive: true, force: true });
    }
  }, 60_000);
});

describe('closing the app', () => {
  it('tells job socket clients why (1001, "server shutting down")', async () => {
    const t = await startTestApp();
    const base = await t.listen();
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/jobs`, { headers: { cookie: await cookieFor(base, 'admin') } });
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    const first = new Promise((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
    expect(await first).toEqual({ type: 'snapshot', jobs: [] });
    const closing = t.built.close();
    expect(await closed).toEqual({ code: 1001, reason: 'server shutting down' });
    await closing;
    await t.close();
    fs.rmSync(t.dataDir, { recursive: true, force: true });
  });
});
