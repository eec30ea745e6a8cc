import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { makeClip, probe, writeVideoPage, writeVtt } from '../fixtures/media.js';
import { S3MediaStore } from '../../src/storage/index.js';
import { mediaStore } from '../../src/storage/index.js';
import { buildSegmentInput, jpegSize, loadVideoSource } from '../../src/questions/segment-input.js';
import { readSampleManifest } from '../../src/sample/sample.service.js';
import { startS3rver, type TestBucket } from './s3rver.js';

/**
 * The app with S3_BUCKET set against a real S3 API (s3rver on 127.0.0.1): the real yt-dlp
 * downloads from a local fixture server, the real ffmpeg extracts frames, and every file ends up
 * in the bucket, none in DATA_DIR. The bucket is checked through a second, independent client.
 */
let root: string;
let s3: TestBucket;
let fx: FixtureServer;
let t: TestApp;
let admin: Agent;
let bucket: S3MediaStore;
let family: TestFamily;
let videoId: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-s3-fixtures-'));
  makeClip(path.join(root, 'lesson-video.mp4'), { seconds: 4 });
  writeVtt(path.join(root, 'lesson.vtt'), [
    [0, 2, 'The bunny hops'],
    [2, 4, 'The pig eats an apple'],
  ]);
  writeVideoPage(path.join(root, 'lesson.html'), 'Bunny lesson', 'lesson-video.mp4', 'lesson.vtt');
  fx = await startFixtureServer(root);
  s3 = await startS3rver('kvq-app-media');
  bucket = new S3MediaStore({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true });
  // the bundled sample is imported on start: with a bucket, into the bucket
  t = await startTestApp({ ...s3.env, DOWNLOAD_EXTRA_HOSTS: '127.0.0.1', DOWNLOAD_AUTH_MODE: 'none', SAMPLE_IMPORT: 'true' });
  admin = await loginAdmin(t.agent());
  family = await createFamily(t);
}, 120_000);

afterAll(async () => {
  bucket?.close();
  await t?.close();
  await fx?.close();
  await s3?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** Every file under DATA_DIR except the database, its WAL and the server secret. */
function dataDirFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else out.push(path.relative(t.dataDir, full));
    }
  };
  walk(t.dataDir);
  return out.filter((f) => !/^app\.sqlite(-wal|-shm)?$/.test(f) && f !== 'secret.key').sort();
}

describe('media in an S3 bucket', () => {
  it('imports the bundled sample into the bucket, not into DATA_DIR', async () => {
    const manifest = readSampleManifest();
    const keys = await bucket.list(`videos/${manifest.video_id}/`);
    // the media of the manifest, and the questions export (a copy of the database) beside them
    expect(keys).toEqual(
      [...Object.keys(manifest.checksums), 'questions.json']
        .map((rel) => `videos/${manifest.video_id}/${rel}`)
        .sort(),
    );
    expect((await bucket.stat(`videos/${manifest.video_id}/${manifest.files.video}`))!.size).toBe(manifest.checksums[manifest.files.video]!.bytes);
    expect(await t.db.first('SELECT frame_count FROM videos WHERE id = ?', [manifest.video_id])).toEqual({ frame_count: manifest.frame_count });
    expect(dataDirFiles()).toEqual([]);
  });

  it('downloads with the real yt-dlp into a temp folder, uploads, and keeps no media in DATA_DIR', async () => {
    const res = await admin
      .post('/api/download')
      .type('form')
      .send({ url: `${fx.url}/lesson.html` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    videoId = res.body.video_id;
    const keys = await bucket.list(`videos/${videoId}/`);
    const subtitle = keys.find((k) => k.endsWith('.vtt'))!;
    expect(keys).toEqual([`videos/${videoId}/info.json`, `videos/${videoId}/thumbnail.jpg`, subtitle, `videos/${videoId}/video.mp4`].sort());
    expect(res.body.files).toEqual(keys.map((k) => `s3://${s3.bucket}/${k}`));
    expect(res.body).toMatchObject({ success: true, local_path: `/media/videos/${videoId}/video`, thumbnail: `/media/videos/${videoId}/thumbnail` });
    expect(await t.db.first('SELECT state, video_file, subtitle_file FROM videos WHERE id = ?', [videoId])).toEqual({
      state: 'downloaded',
      video_file: 'video.mp4',
      subtitle_file: subtitle.slice(subtitle.lastIndexOf('/') + 1),
    });
    // what is in the bucket is the real, playable video
    const copy = path.join(root, 'from-bucket.mp4');
    expect(await bucket.download(`videos/${videoId}/video.mp4`, copy)).toBe(true);
    expect(probe(copy)).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac' });
    expect((await bucket.getBuffer(subtitle))!.toString()).toContain('The bunny hops');
    expect(dataDirFiles()).toEqual([]);
  });

  it('leaves neither objects nor temp files behind when a download fails', async () => {
    const res = await admin
      .post('/api/download')
      .type('form')
      .send({ url: `${fx.url}/missing.mp4` });
    expect(res.body.success).toBe(false);
    expect(await bucket.list('videos/missing/')).toEqual([]);
    expect(await t.db.first('SELECT id FROM videos WHERE id = ?', ['missing'])).toBeUndefined();
    expect(dataDirFiles()).toEqual([]);
  });

  it('extracts frames from the bucket copy (subtitles read from the bucket) and uploads them', async () => {
    const res = await admin.post(`/api/frames/${videoId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // a new frame set, named by the videos row (storage/keys.ts)
    const { frames_set: set } = (await t.db.first<{ frames_set: string }>('SELECT frames_set FROM videos WHERE id = ?', [videoId]))!;
    expect(set).toMatch(/^frames-[a-z0-9]+$/);
    expect(res.body).toMatchObject({ success: true, video_id: videoId, count: 4, output_dir: `s3://${s3.bucket}/videos/${videoId}/${set}/` });
    const frames = await bucket.list(`videos/${videoId}/${set}/`);
    const names = ['frame_00000.jpg', 'frame_00001.jpg', 'frame_00002.jpg', 'frame_00003.jpg', 'frames.csv', 'frames.json'];
    expect(frames).toEqual(names.map((n) => `videos/${videoId}/${set}/${n}`));
    expect(res.body.files).toEqual(frames.slice(0, 4).map((k) => `s3://${s3.bucket}/${k}`));
    const manifest = JSON.parse((await bucket.getBuffer(`videos/${videoId}/${set}/frames.json`))!.toString());
    expect(manifest.frames.map((f: { subtitle: string }) => f.subtitle)).toEqual([
      'The bunny hops',
      'The bunny hops',
      'The pig eats an apple',
      'The pig eats an apple',
    ]);
    expect(await t.db.first('SELECT frame_count FROM videos WHERE id = ?', [videoId])).toEqual({ frame_count: 4 });
    const listed = await admin.get('/api/admin/videos');
    expect(listed.body.videos.find((v: { video_id: string }) => v.video_id === videoId)).toMatchObject({
      has_frames: true,
      frames_dir: `s3://${s3.bucket}/videos/${videoId}/${set}/`,
    });
    expect(dataDirFiles()).toEqual([]);
  });

  it('gives generation its frames and subtitles from the bucket', async () => {
    const src = (await loadVideoSource(t.db, mediaStore(t.config), videoId))!;
    expect(src.manifest.count).toBe(4);
    expect(src.subtitles.map((l) => l.text)).toEqual(['The bunny hops', 'The pig eats an apple']);
    const input = await buildSegmentInput(src, { start: 0, end: 4 }, { withFrames: true, ffmpegPath: t.config.FFMPEG_PATH, store: mediaStore(t.config) });
    expect(input.frames.map((f) => f.timestamp)).toEqual([0, 1, 2, 3]);
    for (const f of input.frames) expect(jpegSize(f.data)).not.toBeNull();
  });

  it('serves the video to the family with Range (206, exact bytes), 304, 416, and the frames and subtitles', async () => {
    const assigned = await admin.post('/api/admin/videos/assignments').send({ video_id: videoId, expert_id: family.expert.expert_id });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    const child = await loginChild(t.agent(), family);
    const whole = (await bucket.getBuffer(`videos/${videoId}/video.mp4`))!;

    const part = await child.get(`/media/videos/${videoId}/video`).set('Range', 'bytes=100-1099').buffer(true);
    expect(part.status).toBe(206);
    expect(part.headers).toMatchObject({
      'content-range': `bytes 100-1099/${whole.length}`,
      'accept-ranges': 'bytes',
      'content-length': '1000',
      'content-type': 'video/mp4',
    });
    expect(Buffer.compare(part.body as Buffer, whole.subarray(100, 1100))).toBe(0);

    const tail = await child.get(`/media/videos/${videoId}/video`).set('Range', 'bytes=-500').buffer(true);
    expect(tail.status).toBe(206);
    expect(Buffer.compare(tail.body as Buffer, whole.subarray(whole.length - 500))).toBe(0);

    const full = await child.get(`/media/videos/${videoId}/video`).buffer(true);
    expect(full.status).toBe(200);
    expect(Buffer.compare(full.body as Buffer, whole)).toBe(0);
    expect(full.headers.etag).toBeTruthy();
    expect((await child.get(`/media/videos/${videoId}/video`).set('If-None-Match', full.headers.etag!)).status).toBe(304);

    const past = await child.get(`/media/videos/${videoId}/video`).set('Range', `bytes=${whole.length + 10}-`);
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${whole.length}`);

    const frame = await child.get(`/media/videos/${videoId}/frames/frame_00002.jpg`).buffer(true);
    expect(frame.status).toBe(200);
    expect(frame.headers['content-type']).toBe('image/jpeg');
    // the URL stays /frames/; the object is in the set the videos row names
    const { frames_set: set } = (await t.db.first<{ frames_set: string }>('SELECT frames_set FROM videos WHERE id = ?', [videoId]))!;
    expect(Buffer.compare(frame.body as Buffer, (await bucket.getBuffer(`videos/${videoId}/${set}/frame_00002.jpg`))!)).toBe(0);
    const subs = await child.get(`/media/videos/${videoId}/subtitles`);
    expect(subs.status).toBe(200);
    expect(subs.text).toContain('The pig eats an apple');
    expect((await child.get(`/media/videos/${videoId}/thumbnail`)).headers['content-type']).toBe('image/jpeg');
    expect((await child.get(`/media/videos/${videoId}/frames/frame_00099.jpg`)).body).toMatchObject({ success: false, error: 'frame_not_found' });
  });

  it('serves the new frame set when an extraction switches sets between the read of the row and of the object', async () => {
    const store = mediaStore(t.config);
    const { frames_set: old } = (await t.db.first<{ frames_set: string }>('SELECT frames_set FROM videos WHERE id = ?', [videoId]))!;
    const fresh = 'frames-zzswitch2';
    const original = store.stat.bind(store);
    let switched = false;
    // when the route asks the bucket for the old set's object, an extraction has just finished:
    // its set is in the bucket, the row names it, the old set is deleted
    store.stat = async (key: string) => {
      if (!switched && key.includes(`/${old}/`)) {
        switched = true;
        for (const k of await bucket.list(`videos/${videoId}/${old}/`)) await bucket.putBuffer(k.replace(`/${old}/`, `/${fresh}/`), (await bucket.getBuffer(k))!);
        await bucket.deletePrefix(`videos/${videoId}/${old}/`);
        await t.db.run('UPDATE videos SET frames_set = ? WHERE id = ?', [fresh, videoId]);
      }
      return original(key);
    };
    try {
      const frame = await admin.get(`/media/videos/${videoId}/frames/frame_00001.jpg`).buffer(true);
      expect(switched).toBe(true);
      expect(frame.status).toBe(200);
      expect(frame.headers['cache-control']).toBe('private, no-cache');
      expect(Buffer.compare(frame.body as Buffer, (await bucket.getBuffer(`videos/${videoId}/${fresh}/frame_00001.jpg`))!)).toBe(0);
    } finally {
      store.stat = original;
    }
  });

  it('keeps access control exactly as with local files', async () => {
    expect((await t.agent().get(`/media/videos/${videoId}/video`)).status).toBe(401);
    const other = await createFamily(t);
    const otherChild = await loginChild(t.agent(), other);
    const refused = await otherChild.get(`/media/videos/${videoId}/video`).set('Range', 'bytes=0-99');
    expect([403, 404]).toContain(refused.status);
    expect(refused.body.success).toBe(false);
    expect(refused.headers['content-range']).toBeUndefined();
    const otherExpert = await loginExpert(t.agent(), other.expert.code);
    expect((await otherExpert.get(`/media/videos/${videoId}/frames/frame_00000.jpg`)).status).toBe(403);
    // the access check runs first (403 above); for the admin, a file name that is not a frame is refused before any key is built
    expect((await admin.get(`/media/videos/${videoId}/frames/..%2F..%2Fsecret.key`)).status).toBe(400);
  });

  it('deletes every object of a deleted video, and keeps other videos', async () => {
    const sampleBefore = await bucket.list('videos/sample-red-ball/');
    const res = await admin.delete(`/api/admin/videos/${videoId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await bucket.list(`videos/${videoId}/`)).toEqual([]);
    expect(await t.db.first('SELECT id FROM videos WHERE id = ?', [videoId])).toBeUndefined();
    expect(await bucket.list('videos/sample-red-ball/')).toEqual(sampleBefore);
    expect(fs.existsSync(path.join(t.dataDir, 'videos', videoId))).toBe(false);
  });
});
