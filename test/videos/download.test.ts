import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type Agent, type TestApp } from '../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { makeClip, makeDash, makeTsNamedMp4, probe, writeVideoPage, writeVtt } from '../fixtures/media.js';
import { readFrameManifest } from '../../src/pipeline/frames.js';
import { mediaStore } from '../../src/storage/index.js';

/**
 * The real yt-dlp and ffmpeg against fixtures made here and served on 127.0.0.1 (allowed through
 * DOWNLOAD_EXTRA_HOSTS). Auth mode `auto` with a browser profile that does not exist, so every
 * download also exercises the fall-back from browser cookies to none.
 */
let root: string;
let fx: FixtureServer;
let t: TestApp;
let admin: Agent;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-fixtures-'));
  makeClip(path.join(root, 'clip.mp4'), { seconds: 3 });
  makeClip(path.join(root, 'lesson-video.mp4'), { seconds: 4 });
  makeClip(path.join(root, 'formclip.mp4'), { seconds: 2 });
  writeVtt(path.join(root, 'lesson.vtt'), [
    [0, 2, 'The bunny hops'],
    [2, 4, 'The pig eats an apple'],
  ]);
  writeVideoPage(path.join(root, 'lesson.html'), 'Bunny lesson', 'lesson-video.mp4', 'lesson.vtt');
  makeDash(path.join(root, 'dash'));
  makeTsNamedMp4(path.join(root, 'stream.mp4'));
  fx = await startFixtureServer(root);
  t = await startTestApp({
    DOWNLOAD_EXTRA_HOSTS: '127.0.0.1',
    DOWNLOAD_AUTH_MODE: 'auto',
    DOWNLOAD_COOKIES_BROWSER: 'chromium:/nonexistent-browser-profile',
  });
  admin = await loginAdmin(t.agent());
}, 60_000);

afterAll(async () => {
  await t?.close();
  await fx?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const download = (url: string) => admin.post('/api/download').type('form').send({ url });
const row = async (id: string) => await t.db.first<Record<string, unknown>>('SELECT * FROM videos WHERE id = ?', [id]);

describe('POST /api/download with the real yt-dlp', () => {
  it('downloads a direct MP4, makes a thumbnail and records the video', async () => {
    const res = await download(`${fx.url}/clip.mp4`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const dir = path.join(t.dataDir, 'videos', 'clip');
    expect(res.body).toMatchObject({
      success: true,
      video_id: 'clip',
      title: 'clip',
      local_path: '/media/videos/clip/video',
      thumbnail: '/media/videos/clip/thumbnail',
      auth_source: 'none',
      used_player_client: ['default'],
      files: [path.join(dir, 'info.json'), path.join(dir, 'thumbnail.jpg'), path.join(dir, 'video.mp4')],
    });
    expect(res.body.duration).toBeCloseTo(3, 0);
    expect(res.body.subtitle_warning).toMatch(/No English subtitles/);
    expect(await row('clip')).toMatchObject({ state: 'downloaded', video_file: 'video.mp4', thumbnail_file: 'thumbnail.jpg', subtitle_file: null, source_url: `${fx.url}/clip.mp4`, frame_count: 0 });
    expect(probe(path.join(dir, 'video.mp4'))).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac' });
    expect(probe(path.join(dir, 'thumbnail.jpg')).videoCodec).toBe('mjpeg');
    const info = JSON.parse(fs.readFileSync(path.join(dir, 'info.json'), 'utf8'));
    expect(info.id).toBe('clip');
    expect(info).not.toHaveProperty('formats');
    // no temp dir left behind
    expect(fs.readdirSync(path.join(t.dataDir, 'videos')).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('captures the English <track> of an HTML page as WebVTT', async () => {
    const res = await download(`${fx.url}/lesson.html`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.subtitle_warning).toBeUndefined();
    const id = res.body.video_id as string;
    const r = (await row(id))!;
    expect(r.subtitle_file).toBe('video.en.vtt');
    expect(r.title).toMatch(/Bunny lesson/);
    const vtt = fs.readFileSync(path.join(t.dataDir, 'videos', id, 'video.en.vtt'), 'utf8');
    expect(vtt).toContain('The pig eats an apple');
    expect(res.body.files).toContain(path.join(t.dataDir, 'videos', id, 'video.en.vtt'));
  });

  it('picks the 720p H.264 + AAC pair from a DASH manifest offering 720p and 1080p', async () => {
    const res = await download(`${fx.url}/dash/manifest.mpd`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const file = path.join(t.dataDir, 'videos', res.body.video_id, 'video.mp4');
    expect(probe(file)).toMatchObject({ height: 720, videoCodec: 'h264', audioCodec: 'aac' });
    expect(probe(file).format).toContain('mp4');
    // the 1080p segments were never fetched
    expect(fx.requests.some((p) => p.includes('chunk-stream1'))).toBe(false);
  });

  it('repairs an MPEG-TS stream saved as .mp4 into a real MP4', async () => {
    const res = await download(`${fx.url}/stream.mp4`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toMatch(/remuxed/);
    const p = probe(path.join(t.dataDir, 'videos', 'stream', 'video.mp4'));
    expect(p.format).toContain('mp4');
    expect(p.videoCodec).toBe('h264');
    expect(p.duration).toBeCloseTo(3, 0);
  });

  it('reports a missing video with a code and a hint, and leaves nothing behind', async () => {
    const res = await download(`${fx.url}/missing.mp4`);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, error_code: 'video_unavailable', auth_source: 'none', used_player_client: ['default'] });
    expect(res.body.recovery_hint).toMatch(/private, removed/);
    expect(await row('missing')).toBeUndefined();
    expect(fs.readdirSync(path.join(t.dataDir, 'videos')).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('refuses a link outside the allow-list before running anything', async () => {
    const before = fx.requests.length;
    const res = await download('https://www.youtube.com.evil.example/watch?v=dQw4w9WgXcQ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error_code: 'invalid_url' });
    expect(res.body.recovery_hint).toMatch(/youtube\.com or youtu\.be/);
    expect(fx.requests.length).toBe(before);
  });

  it('validates the form and the role', async () => {
    const missing = await admin.post('/api/download').type('form').send({});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ success: false, error: 'validation_error' });
    expect((await t.agent().post('/api/download').type('form').send({ url: `${fx.url}/clip.mp4` })).status).toBe(401);
    const fam = await createFamily(t);
    const expert = await loginExpert(t.agent(), fam.expert.code);
    expect((await expert.post('/api/download').type('form').send({ url: `${fx.url}/clip.mp4` })).status).toBe(403);
  });
});

describe('POST /api/download as multipart/form-data (what the original admin page sends)', () => {
  it('downloads and records the video exactly like the urlencoded form', async () => {
    const res = await admin.post('/api/download').field('url', `${fx.url}/formclip.mp4`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, video_id: 'formclip', title: 'formclip', local_path: '/media/videos/formclip/video', auth_source: 'none' });
    expect(await row('formclip')).toMatchObject({ state: 'downloaded', video_file: 'video.mp4', source_url: `${fx.url}/formclip.mp4` });
  });

  it('answers the same refusals as the urlencoded form', async () => {
    const bad = 'https://www.youtube.com.evil.example/watch?v=dQw4w9WgXcQ';
    const [multipart, form] = [await admin.post('/api/download').field('url', bad), await download(bad)];
    expect(multipart.status).toBe(400);
    expect(multipart.body).toEqual(form.body);
    expect(multipart.body).toMatchObject({ success: false, error_code: 'invalid_url' });
    const missing = await admin.post('/api/download').field('link', `${fx.url}/clip.mp4`);
    const missingForm = await admin.post('/api/download').type('form').send({ link: `${fx.url}/clip.mp4` });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(missingForm.body);
    expect(missing.body).toMatchObject({ success: false, error: 'validation_error', detail: [{ loc: ['body', 'url'] }] });
    expect((await t.agent().post('/api/download').field('url', `${fx.url}/clip.mp4`)).status).toBe(401);
  });
});

describe('downloaded → frames → lists → expert claim → child', () => {
  it('runs the whole flow through the API', async () => {
    const dl = await download(`${fx.url}/lesson.html`);
    const id = dl.body.video_id as string;

    const frames = await admin.post(`/api/frames/${id}`);
    expect(frames.status, JSON.stringify(frames.body)).toBe(200);
    const set = (await t.db.first<{ frames_set: string }>('SELECT frames_set FROM videos WHERE id = ?', [id]))!.frames_set;
    const framesDir = path.join(t.dataDir, 'videos', id, set);
    expect(frames.body).toMatchObject({ success: true, video_id: id, output_dir: framesDir, count: 4 });
    expect(frames.body.files[0]).toBe(path.join(framesDir, 'frame_00000.jpg'));
    const manifest = (await readFrameManifest(mediaStore(t.config), id, set))!;
    expect(manifest.frames.map((f) => f.subtitle)).toEqual(['The bunny hops', 'The bunny hops', 'The pig eats an apple', 'The pig eats an apple']);

    const list = await admin.get('/api/admin/videos');
    const item = list.body.videos.find((v: { video_id: string }) => v.video_id === id);
    expect(item).toMatchObject({ has_frames: true, frame_count: 4, frames_dir: framesDir, has_questions: false, question_file: '' });
    expect(list.body.videos.some((v: { video_id: string }) => v.video_id === 'clip')).toBe(false); // no frames yet

    const fam = await createFamily(t);
    const expert = await loginExpert(t.agent(), fam.expert.code);
    const claim = await expert.post(`/api/expert/videos/${id}/claim`);
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);

    const child = await loginChild(t.agent(), fam);
    const videos = await child.get(`/api/learners/children/${fam.child.child_id}/videos`);
    expect(videos.status).toBe(200);
    expect(videos.body.videos.map((v: { video_id: string }) => v.video_id)).toEqual([id]);
    const media = await child.get(videos.body.videos[0].local_path).set('Range', 'bytes=0-99');
    expect(media.status).toBe(206);
    expect(media.headers['content-type']).toBe('video/mp4');
  });
});
