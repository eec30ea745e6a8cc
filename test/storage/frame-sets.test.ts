import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { makeClip } from '../fixtures/media.js';
import { addVideo } from '../fixtures/videos.js';
import { extractFrames } from '../../src/videos/frames.service.js';
import { getVideo } from '../../src/videos/videos.repository.js';
import { readFrameManifest, FRAME_FILE_RE } from '../../src/pipeline/frames.js';
import { LocalMediaStore, S3MediaStore, type MediaStore } from '../../src/storage/index.js';
import { frameSetsIn, framesPrefix, videoKey, videoPrefix } from '../../src/storage/keys.js';
import { startS3rver, type TestBucket } from './s3rver.js';

/**
 * Frames are replaced atomically for readers, on both stores: a re-extraction writes a new frame
 * set, switches the videos row to it in one UPDATE, then deletes the old set. A store that
 * checks the invariant before and after every write the extraction makes shows that whatever
 * moment a reader picks, the set the row names is one whole extraction: its manifest holds the
 * row's frame count and names exactly the frames present (never a mix of two, never none).
 */
let t: TestApp;
let s3: TestBucket;
let tmp: string;
let clip4: string;
let clip3: string;
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-frame-sets-'));
  clip4 = makeClip(path.join(tmp, 'four.mp4'), { seconds: 4 });
  clip3 = makeClip(path.join(tmp, 'three.mp4'), { seconds: 3 });
  s3 = await startS3rver('kvq-frame-sets');
  t = await startTestApp();
}, 60_000);

afterAll(async () => {
  await t?.close();
  await s3?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const WRITES = new Set(['putFile', 'putBuffer', 'replacePrefix', 'delete', 'deletePrefix']);

/** The store, with the reader's invariant checked around every write; `checks` counts them. */
function watched(inner: MediaStore, videoId: string): { store: MediaStore; checks: () => number } {
  let checks = 0;
  const check = async () => {
    const v = (await getVideo(t.db, videoId))!;
    if (v.frameCount === 0) return; // no frames yet: nothing to read
    const manifest = await readFrameManifest(inner, videoId, v.framesSet);
    expect(manifest?.count, `manifest of set ${v.framesSet}`).toBe(v.frameCount);
    const frames = (await inner.list(framesPrefix(videoId, v.framesSet))).map((k) => k.slice(k.lastIndexOf('/') + 1)).filter((n) => FRAME_FILE_RE.test(n));
    expect(frames).toEqual(manifest!.frames.map((f) => f.file));
    checks++;
  };
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (!WRITES.has(String(prop))) return value.bind(target);
      return async (...args: unknown[]) => {
        await check();
        // called on the proxy, so a store's own inner writes (each object a bucket upload puts) are checked too
        const r = await value.apply(receiver, args);
        await check();
        return r;
      };
    },
  });
  return { store, checks: () => checks };
}

describe.each([
  ['local', () => new LocalMediaStore(t.dataDir)],
  ['s3', () => new S3MediaStore({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true })],
] as const)('frame sets on the %s store', (kind, makeStore) => {
  it('swaps a re-extraction in one row update, and deletes the old set only after the switch', async () => {
    const inner = makeStore();
    const id = `swap-${kind}`;
    await addVideo(t.db, t.dataDir, { id, videoFile: clip4, duration: 4 });
    if (kind === 's3') {
      await inner.putFile(videoKey(id, 'video.mp4'), clip4);
      fs.rmSync(path.join(t.dataDir, 'videos', id), { recursive: true, force: true });
    }
    const { store, checks } = watched(inner, id);
    const deps = { config: t.config, db: t.db, logger, store };

    const first = await extractFrames(deps, id);
    expect(first.count).toBe(4);
    const set1 = (await getVideo(t.db, id))!.framesSet!;
    expect(set1).toMatch(/^frames-[a-z0-9]+$/);
    expect(first.outputDir).toBe(inner.location(framesPrefix(id, set1)));

    // the video changes (a shorter one): the next extraction has fewer frames
    await inner.putFile(videoKey(id, 'video.mp4'), clip3);
    const second = await extractFrames(deps, id);
    expect(second.count).toBe(3);
    const v = (await getVideo(t.db, id))!;
    expect(v.frameCount).toBe(3);
    expect(v.framesSet).not.toBe(set1);
    // the invariant held around every write of the second run (the first had no frames to read yet)
    expect(checks()).toBeGreaterThanOrEqual(kind === 's3' ? 4 + 2 * 5 : 4);
    // only the new set is left, and it is whole
    const keys = await inner.list(videoPrefix(id));
    expect(frameSetsIn(id, keys)).toEqual([v.framesSet]);
    expect(keys.filter((k) => k.startsWith(framesPrefix(id, v.framesSet)))).toHaveLength(3 + 2);
    if (kind === 's3') expect(fs.existsSync(path.join(t.dataDir, 'videos', id))).toBe(false);
    else expect(fs.readdirSync(path.join(t.dataDir, 'videos', id)).filter((n) => n.startsWith('.'))).toEqual([]);
    inner.close();
  });

  it('keeps serving the old set when the new one fails before the switch', async () => {
    const inner = makeStore();
    const id = `keep-${kind}`;
    await addVideo(t.db, t.dataDir, { id, videoFile: clip4, duration: 4 });
    if (kind === 's3') await inner.putFile(videoKey(id, 'video.mp4'), clip4);
    const deps = { config: t.config, db: t.db, logger, store: inner };
    await extractFrames(deps, id);
    const before = (await getVideo(t.db, id))!;
    // the store refuses the new set's upload half-way: the row still names the old, whole set
    let puts = 0;
    const failing = new Proxy(inner, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop === 'replacePrefix') {
          return async () => {
            puts++;
            throw new Error('bucket went away');
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(extractFrames({ ...deps, store: failing }, id)).rejects.toThrow(/bucket went away/);
    expect(puts).toBe(1);
    const after = (await getVideo(t.db, id))!;
    expect([after.framesSet, after.frameCount]).toEqual([before.framesSet, before.frameCount]);
    expect((await readFrameManifest(inner, id, after.framesSet))!.count).toBe(4);
    inner.close();
  });
});

describe('frames of media written before frame sets existed', () => {
  it('are read from the folder `frames` while the row names no set (the bundled sample, older installations)', async () => {
    const store = new LocalMediaStore(t.dataDir);
    const id = 'legacy-frames';
    await addVideo(t.db, t.dataDir, { id, videoFile: clip3, duration: 3 });
    const manifest = { video_id: id, fps: 1, count: 1, frames: [{ frame: 0, timestamp: 0, time: '00:00:00', file: 'frame_00000.jpg', subtitle: '' }] };
    await store.putBuffer(`videos/${id}/frames/frames.json`, JSON.stringify(manifest));
    expect((await getVideo(t.db, id))!.framesSet).toBeNull();
    expect(framesPrefix(id, null)).toBe(`videos/${id}/frames/`);
    expect(await readFrameManifest(store, id, null)).toEqual(manifest);
    // the first extraction moves it to a set and removes the old folder
    await extractFrames({ config: t.config, db: t.db, logger, store }, id);
    const v = (await getVideo(t.db, id))!;
    expect(frameSetsIn(id, await store.list(videoPrefix(id)))).toEqual([v.framesSet]);
    expect(v.frameCount).toBe(3);
  });

  it('refuses set names that are not frame sets', () => {
    for (const bad of ['..', 'frames/..', 'frames-UP', 'other', 'frames-', '.frames-x']) expect(() => framesPrefix('vid', bad), bad).toThrow(/invalid frames set/);
  });
});
