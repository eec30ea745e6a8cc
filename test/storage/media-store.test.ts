import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalMediaStore, S3MediaStore, uploadMediaFolder, type MediaStore } from '../../src/storage/index.js';
import { RangeNotSatisfiable } from '../../src/storage/media-store.js';
import { bothStores, startS3rver, type TestBucket } from './s3rver.js';

/**
 * One contract, two stores: the local folder (DATA_DIR) and a real S3 API (s3rver on 127.0.0.1).
 * Every case reads back through the store AND checks where the bytes really are (the folder, or
 * the bucket through a second store on the same bucket).
 */
let tmp: string;
let s3: TestBucket;
const big = crypto.randomBytes(12 * 1024 * 1024 + 12345); // above one 8 MiB part: a multipart upload

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-store-'));
  s3 = await startS3rver('kvq-contract');
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const stores = bothStores(
  () => tmp,
  () => s3,
);

const localFile = (name: string, data: Buffer | string) => {
  const f = path.join(tmp, `${crypto.randomBytes(4).toString('hex')}-${name}`);
  fs.writeFileSync(f, data);
  return f;
};

describe.each(stores)('%s', (_name, make) => {
  let store: MediaStore;
  beforeAll(() => {
    store = make();
  });
  afterAll(() => store.close());

  it('puts a big file (multipart on S3) and reads it back whole, to a buffer and to a file', async () => {
    const src = localFile('video.mp4', big);
    await store.putFile('videos/abc/video.mp4', src);
    expect(fs.existsSync(src)).toBe(true); // not moved unless asked
    expect(await store.stat('videos/abc/video.mp4')).toMatchObject({ size: big.length });
    expect((await store.getBuffer('videos/abc/video.mp4'))!.equals(big)).toBe(true);
    const out = path.join(tmp, `out-${crypto.randomBytes(4).toString('hex')}.mp4`);
    expect(await store.download('videos/abc/video.mp4', out)).toBe(true);
    expect(fs.readFileSync(out).equals(big)).toBe(true);
    expect(fs.readdirSync(tmp).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('moves a file in with move: the source is gone, the bytes are in the store', async () => {
    const src = localFile('thumb.jpg', 'jpeg bytes');
    await store.putFile('videos/abc/thumbnail.jpg', src, { move: true });
    expect(fs.existsSync(src)).toBe(false);
    expect((await store.getBuffer('videos/abc/thumbnail.jpg'))!.toString()).toBe('jpeg bytes');
  });

  it('reads exact byte ranges and refuses a range past the end', async () => {
    const r = await store.read('videos/abc/video.mp4', { start: 1000, end: 1999 });
    expect(r).toMatchObject({ size: big.length, range: { start: 1000, end: 1999 } });
    const chunks: Buffer[] = [];
    for await (const c of r!.body) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(big.subarray(1000, 2000))).toBe(true);
    const whole = await store.read('videos/abc/thumbnail.jpg');
    expect(await text(whole!.body)).toBe('jpeg bytes');
    await expect(store.read('videos/abc/video.mp4', { start: big.length + 10, end: big.length + 20 })).rejects.toBeInstanceOf(RangeNotSatisfiable);
    expect(await store.read('videos/abc/nothing.mp4')).toBeNull();
  });

  it('answers missing keys with null/false, and exists/stat agree', async () => {
    expect(await store.getBuffer('videos/none/video.mp4')).toBeNull();
    expect(await store.stat('videos/none/video.mp4')).toBeNull();
    expect(await store.exists('videos/none/video.mp4')).toBe(false);
    expect(await store.exists('videos/abc/video.mp4')).toBe(true);
    expect(await store.download('videos/none/video.mp4', path.join(tmp, 'never'))).toBe(false);
    expect(fs.existsSync(path.join(tmp, 'never'))).toBe(false);
  });

  it('overwrites a buffer in place, lists a prefix, deletes one key and a prefix', async () => {
    await store.putBuffer('videos/xyz/info.json', '{"a":1}');
    await store.putBuffer('videos/xyz/info.json', '{"a":2}');
    await store.putBuffer('videos/xyz/frames/frame_00000.jpg', Buffer.from([1, 2, 3]));
    await store.putBuffer('videos/xyz/frames/frames.json', '{}');
    await store.putBuffer('videos/xyzz/info.json', 'a neighbour with a longer id');
    expect((await store.getBuffer('videos/xyz/info.json'))!.toString()).toBe('{"a":2}');
    expect(await store.list('videos/xyz/')).toEqual(['videos/xyz/frames/frame_00000.jpg', 'videos/xyz/frames/frames.json', 'videos/xyz/info.json']);
    await store.delete('videos/xyz/info.json');
    await store.delete('videos/xyz/info.json'); // deleting twice is fine
    expect(await store.exists('videos/xyz/info.json')).toBe(false);
    expect(await store.deletePrefix('videos/xyz/')).toBe(2);
    expect(await store.list('videos/xyz/')).toEqual([]);
    expect(await store.exists('videos/xyzz/info.json')).toBe(true); // the prefix ends at the '/'
    expect(await store.deletePrefix('videos/never/')).toBe(0);
  });

  it('replaces a prefix with a folder: new files in, stale ones gone, the folder consumed', async () => {
    await store.putBuffer('videos/rp/frames/frame_00000.jpg', 'old 0');
    await store.putBuffer('videos/rp/frames/frame_00009.jpg', 'old 9, gone after');
    const dir = fs.mkdtempSync(path.join(tmp, 'frames-'));
    fs.writeFileSync(path.join(dir, 'frame_00000.jpg'), 'new 0');
    fs.writeFileSync(path.join(dir, 'frame_00001.jpg'), 'new 1');
    fs.writeFileSync(path.join(dir, 'frames.json'), '{"count":2}');
    await store.replacePrefix('videos/rp/frames/', dir, ['frames.json']);
    expect(fs.existsSync(dir)).toBe(false);
    expect(await store.list('videos/rp/')).toEqual(['videos/rp/frames/frame_00000.jpg', 'videos/rp/frames/frame_00001.jpg', 'videos/rp/frames/frames.json']);
    expect((await store.getBuffer('videos/rp/frames/frame_00000.jpg'))!.toString()).toBe('new 0');
  });

  it('refuses keys that could leave the media folder or name a dot-file', async () => {
    for (const bad of ['../etc/passwd', 'videos/../../x', '/abs', 'videos/.hidden', 'videos//x', 'videos/a\\b', '']) {
      await expect(store.putBuffer(bad, 'x')).rejects.toThrow(/invalid media key/);
      await expect(store.getBuffer(bad)).rejects.toThrow(/invalid media key/);
    }
    await expect(store.deletePrefix('../')).rejects.toThrow(/invalid media prefix/);
    await expect(store.list('videos')).rejects.toThrow(/invalid media prefix/);
  });
});

describe('the local store keeps the layout under DATA_DIR', () => {
  it('writes key videos/<id>/<file> to DATA_DIR/videos/<id>/<file>, leaving no temp file', async () => {
    const dataDir = fs.mkdtempSync(path.join(tmp, 'layout-'));
    const store = new LocalMediaStore(dataDir);
    await store.putBuffer('videos/v1/info.json', '{}');
    expect(fs.readdirSync(path.join(dataDir, 'videos', 'v1'))).toEqual(['info.json']);
    expect(store.location('videos/v1/info.json')).toBe(path.join(dataDir, 'videos', 'v1', 'info.json'));
    expect(store.localPath('videos/v1/info.json')).toBe(path.join(dataDir, 'videos', 'v1', 'info.json'));
  });
});

describe('uploadMediaFolder (for npm run db:to-postgres with S3_BUCKET)', () => {
  it('uploads DATA_DIR/videos under the same keys, skipping temp and dot-files, and can run twice', async () => {
    const dataDir = fs.mkdtempSync(path.join(tmp, 'school-'));
    const v = path.join(dataDir, 'videos', 'abcdefghijk');
    fs.mkdirSync(path.join(v, 'frames'), { recursive: true });
    fs.writeFileSync(path.join(v, 'video.mp4'), big);
    fs.writeFileSync(path.join(v, 'video.en.vtt'), 'WEBVTT\n');
    fs.writeFileSync(path.join(v, 'frames', 'frame_00000.jpg'), 'jpg');
    fs.writeFileSync(path.join(v, 'frames', 'frames.json'), '{}');
    fs.mkdirSync(path.join(v, '.frames-new-123'));
    fs.writeFileSync(path.join(v, '.frames-new-123', 'frame_00000.jpg'), 'half-done');
    fs.mkdirSync(path.join(dataDir, 'videos', '.incoming-dl-1'));
    fs.writeFileSync(path.join(dataDir, 'app.sqlite'), 'not media');

    const store = new S3MediaStore({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, prefix: 'moved-school/' });
    try {
      const r = await uploadMediaFolder(store, dataDir);
      const keys = [
        'videos/abcdefghijk/frames/frame_00000.jpg',
        'videos/abcdefghijk/frames/frames.json',
        'videos/abcdefghijk/video.en.vtt',
        'videos/abcdefghijk/video.mp4',
      ];
      expect([...r.uploaded].sort()).toEqual(keys);
      expect(r.skipped.sort()).toEqual(['videos/.incoming-dl-1', 'videos/abcdefghijk/.frames-new-123']);
      expect(r.bytes).toBe(big.length + 7 + 3 + 2);
      expect(await store.list('videos/')).toEqual(keys);
      expect((await store.getBuffer('videos/abcdefghijk/video.mp4'))!.equals(big)).toBe(true);
      const again = await uploadMediaFolder(store, dataDir);
      expect(again.uploaded).toHaveLength(4);
      expect(await store.list('videos/')).toEqual(keys);
    } finally {
      store.close();
    }
  });

  it('does nothing for a data dir without media', async () => {
    const store = new LocalMediaStore(fs.mkdtempSync(path.join(tmp, 'to-')));
    expect(await uploadMediaFolder(store, fs.mkdtempSync(path.join(tmp, 'empty-')))).toEqual({ uploaded: [], skipped: [], bytes: 0 });
  });
});
