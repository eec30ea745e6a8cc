import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAdmin, startTestApp, type Agent, type TestApp } from '../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { makeClip } from '../fixtures/media.js';
import { mediaStore } from '../../src/storage/index.js';
import { startS3rver, type TestBucket } from './s3rver.js';

/**
 * The bucket goes away (s3rver stopped): every caller gets a clear 503 storage_unavailable or a
 * failed download result, never a 500, and nothing is left behind in DATA_DIR.
 */
let root: string;
let s3: TestBucket;
let fx: FixtureServer;
let t: TestApp;
let admin: Agent;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-s3-outage-'));
  makeClip(path.join(root, 'clip.mp4'), { seconds: 2 });
  fx = await startFixtureServer(root);
  s3 = await startS3rver('kvq-outage');
  t = await startTestApp({ ...s3.env, DOWNLOAD_EXTRA_HOSTS: '127.0.0.1', DOWNLOAD_AUTH_MODE: 'none' });
  admin = await loginAdmin(t.agent());
  // a finished video, straight into the bucket and the table
  await mediaStore(t.config).putFile('videos/stored/video.mp4', path.join(root, 'clip.mp4'));
  await t.db.run(`INSERT INTO videos (id, title, duration_seconds, video_file, state, is_sample) VALUES ('stored', 'Stored', 2, 'video.mp4', 'downloaded', 0)`);
  expect((await admin.get('/media/videos/stored/video').set('Range', 'bytes=0-9')).status).toBe(206);
  await s3.close();
}, 60_000);

afterAll(async () => {
  await t?.close();
  await fx?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('an unreachable bucket', () => {
  it('answers media requests with 503 storage_unavailable', async () => {
    const res = await admin.get('/media/videos/stored/video').set('Range', 'bytes=0-9');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, error: 'storage_unavailable' });
  });

  it('refuses frame extraction with 503 storage_unavailable', async () => {
    const res = await admin.post('/api/frames/stored');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, error: 'storage_unavailable' });
    expect(await t.db.first('SELECT frame_count FROM videos WHERE id = ?', ['stored'])).toEqual({ frame_count: 0 });
  });

  it('fails a download with a result that says so, leaving no row and no temp folder', async () => {
    const res = await admin
      .post('/api/download')
      .type('form')
      .send({ url: `${fx.url}/clip.mp4` });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, error_code: 'download_failed' });
    expect(res.body.message).toMatch(/could not be stored/);
    expect(await t.db.first('SELECT id FROM videos WHERE id = ?', ['clip'])).toBeUndefined();
    expect(fs.readdirSync(path.join(t.dataDir, 'videos'))).toEqual([]);
  });
});
