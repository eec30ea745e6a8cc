import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type Agent, type TestApp } from '../helpers/app.js';
import { frameHalfMeans, makeClockVideo, writeVtt } from '../fixtures/media.js';
import { addVideo } from '../fixtures/videos.js';
import { frameManifestSchema, readFrameManifest } from '../../src/pipeline/frames.js';
import { mediaStore } from '../../src/storage/index.js';

/** POST /api/frames/{video_id} and the frame media route, with the real ffmpeg. */
let tmp: string;
let t: TestApp;
let admin: Agent;
let clock60: string;
let clock10: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-frames-route-'));
  clock60 = makeClockVideo(path.join(tmp, 'clock60.mp4'), 60);
  clock10 = makeClockVideo(path.join(tmp, 'clock10.mp4'), 10);
  const vtt = writeVtt(path.join(tmp, 'clock.vtt'), [
    [0, 2.5, 'The bunny wakes up'],
    [10, 12, 'The pig & the alligator, together'],
    [59, 60, 'The end'],
  ]);
  t = await startTestApp();
  admin = await loginAdmin(t.agent());
  await addVideo(t.db, t.dataDir, { id: 'clock', videoFile: clock60, subtitleFile: vtt, duration: 60 });
}, 60_000);
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The folder of the frame set the videos row names (each extraction writes a new one). */
const framesSet = async () => (await t.db.first<{ frames_set: string | null }>('SELECT frames_set FROM videos WHERE id = ?', ['clock']))!.frames_set;
const setDir = (set: string | null) => path.join(t.dataDir, 'videos', 'clock', set ?? 'frames');
/** The frame-set folders present on disk for the video. */
const setsOnDisk = () => fs.readdirSync(path.join(t.dataDir, 'videos', 'clock')).filter((n) => /^frames/.test(n));
const frameCount = async () => (await t.db.first<{ frame_count: number }>('SELECT frame_count FROM videos WHERE id = ?', ['clock']))!.frame_count;

describe('POST /api/frames/{video_id}', () => {
  it('extracts 60 frames from 60 s, frame k at t = k, with manifests carrying the subtitles', async () => {
    const res = await admin.post('/api/frames/clock');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const set = await framesSet();
    expect(set).toMatch(/^frames-[a-z0-9]+$/);
    const framesDir = () => setDir(set);
    expect(res.body).toMatchObject({ success: true, video_id: 'clock', output_dir: framesDir(), count: 60 });
    expect(res.body.files).toHaveLength(60);
    expect(res.body.files[59]).toBe(path.join(framesDir(), 'frame_00059.jpg'));
    expect(await frameCount()).toBe(60);

    const json = JSON.parse(fs.readFileSync(path.join(framesDir(), 'frames.json'), 'utf8'));
    expect(frameManifestSchema.parse(json)).toEqual(await readFrameManifest(mediaStore(t.config), 'clock', set));
    expect(json.count).toBe(60);
    expect(json.frames[0]).toEqual({ frame: 0, timestamp: 0, time: '00:00:00', file: 'frame_00000.jpg', subtitle: 'The bunny wakes up' });
    expect(json.frames[3].subtitle).toBe('');
    expect(json.frames[11]).toMatchObject({ time: '00:00:11', subtitle: 'The pig & the alligator, together' });
    expect(json.frames[59].subtitle).toBe('The end');
    const csv = fs.readFileSync(path.join(framesDir(), 'frames.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(61);
    expect(csv[11]).toBe('10,10,00:00:10,frame_00010.jpg,"The pig & the alligator, together"');

    frameHalfMeans(framesDir(), 64, 48).forEach((m, k) => expect(Math.abs(m.left - (20 + 3 * k))).toBeLessThan(1.5));
  });

  it('re-extraction writes a new set, switches the row to it and deletes the old set; no temp dir is left', async () => {
    const old = await framesSet();
    fs.copyFileSync(clock10, path.join(t.dataDir, 'videos', 'clock', 'video.mp4'));
    const res = await admin.post('/api/frames/clock');
    expect(res.body.count).toBe(10);
    const set = await framesSet();
    expect(set).not.toBe(old);
    expect(res.body.output_dir).toBe(setDir(set));
    expect(setsOnDisk()).toEqual([set]);
    const names = fs.readdirSync(setDir(set)).sort();
    expect(names).toEqual([...Array.from({ length: 10 }, (_, k) => `frame_${String(k).padStart(5, '0')}.jpg`), 'frames.csv', 'frames.json'].sort());
    expect(fs.readdirSync(path.join(t.dataDir, 'videos', 'clock')).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(await frameCount()).toBe(10);
  });

  it('keeps the previous frames when ffmpeg fails', async () => {
    const set = await framesSet();
    const framesDir = () => setDir(set);
    const before = fs.readFileSync(path.join(framesDir(), 'frames.json'), 'utf8');
    fs.writeFileSync(path.join(t.dataDir, 'videos', 'clock', 'video.mp4'), 'this is not a video');
    const res = await admin.post('/api/frames/clock');
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, error: 'frames_failed' });
    expect(fs.readFileSync(path.join(framesDir(), 'frames.json'), 'utf8')).toBe(before);
    expect(fs.readdirSync(framesDir())).toHaveLength(12);
    expect(await frameCount()).toBe(10);
    expect(await framesSet()).toBe(set);
    expect(setsOnDisk()).toEqual([set]);
    fs.copyFileSync(clock10, path.join(t.dataDir, 'videos', 'clock', 'video.mp4'));
  });

  it('refuses while the video is busy or still downloading, and unknown or malformed ids', async () => {
    await t.db.run("INSERT INTO video_locks (key, kind, owner) VALUES ('video:clock', 'download', 'test')");
    const busy = await admin.post('/api/frames/clock');
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ error: 'video_busy' });
    await t.db.run("DELETE FROM video_locks WHERE owner = 'test'");

    await t.db.run("INSERT INTO videos (id, title, state) VALUES ('halfdone', 'Half', 'downloading')");
    expect((await admin.post('/api/frames/halfdone')).body).toMatchObject({ error: 'video_not_ready' });
    expect((await admin.post('/api/frames/nosuchvideo')).status).toBe(404);
    for (const bad of ['..', '.hidden', 'a%2Fb', 'a.b', '-x', 'x'.repeat(65)]) {
      const r = await admin.post(`/api/frames/${bad}`);
      expect([400, 404], bad).toContain(r.status);
      if (r.status === 400) expect(r.body.error).toBe('validation_error');
    }
    expect((await admin.post('/api/frames/a.b')).status).toBe(400);
  });

  it('is for the admin only', async () => {
    expect((await t.agent().post('/api/frames/clock')).status).toBe(401);
    const fam = await createFamily(t);
    expect((await (await loginExpert(t.agent(), fam.expert.code)).post('/api/frames/clock')).status).toBe(403);
    expect((await (await loginChild(t.agent(), fam)).post('/api/frames/clock')).status).toBe(403);
  });
});

describe('GET /media/videos/{video_id}/frames/{file}', () => {
  it('serves frames and manifests to the admin, refuses bad names', async () => {
    const jpg = await admin.get('/media/videos/clock/frames/frame_00003.jpg');
    expect(jpg.status).toBe(200);
    expect(jpg.headers['content-type']).toBe('image/jpeg');
    const json = await admin.get('/media/videos/clock/frames/frames.json');
    expect(json.body.count).toBe(10);
    expect((await admin.get('/media/videos/clock/frames/frame_00099.jpg')).status).toBe(404);
    for (const bad of ['frame_1.jpg', 'video.mp4', '..%2Fvideo.mp4', '.frames.json', 'frame_00001.png']) {
      expect((await admin.get(`/media/videos/clock/frames/${bad}`)).status, bad).toBe(400);
    }
  });

  it('serves the new set when an extraction switches sets between the read of the row and of the file', async () => {
    const store = mediaStore(t.config);
    const old = await framesSet();
    const fresh = 'frames-zzswitch1';
    const original = store.localPath.bind(store);
    let switched = false;
    // at the moment the route turns the row's set into a file, an extraction finishes: its set is
    // in place, the row names it, the old set is gone
    store.localPath = (key: string) => {
      if (!switched && key.includes(`/${old}/`)) {
        switched = true;
        fs.renameSync(setDir(old), setDir(fresh));
        void t.db.run('UPDATE videos SET frames_set = ? WHERE id = ?', [fresh, 'clock']);
      }
      return original(key);
    };
    try {
      const jpg = await admin.get('/media/videos/clock/frames/frame_00003.jpg');
      expect(switched).toBe(true);
      expect(jpg.status).toBe(200);
      expect(Buffer.compare(jpg.body as Buffer, fs.readFileSync(path.join(setDir(fresh), 'frame_00003.jpg')))).toBe(0);
      // revalidated on every use, so a browser never pairs a cached manifest with another set's frames
      expect(jpg.headers['cache-control']).toBe('private, no-cache');
      expect((await admin.get('/media/videos/clock/frames/frames.json')).headers['cache-control']).toBe('private, no-cache');
      expect((await admin.get('/media/videos/clock/video')).headers['cache-control']).toBe('private, max-age=300');
    } finally {
      store.localPath = original;
    }
  });

  it('refuses sessions that may not see the video', async () => {
    expect((await t.agent().get('/media/videos/clock/frames/frame_00000.jpg')).status).toBe(401);
    const fam = await createFamily(t);
    const expert = await loginExpert(t.agent(), fam.expert.code);
    expect((await expert.get('/media/videos/clock/frames/frame_00000.jpg')).status).toBe(403);
  });
});
