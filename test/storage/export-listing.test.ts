import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3MediaStore, type MediaStore } from '../../src/storage/index.js';
import { FRAMES_DELIMITER, frameKey, VIDEOS_PREFIX, videoKey } from '../../src/storage/keys.js';
import { questionExportKey, questionExportLocations } from '../../src/questions/export.js';
import { bothStores, startS3rver, type TestBucket } from './s3rver.js';

/**
 * The admin list's `question_file`: every export found with ONE listing of `videos/` whose frame
 * sets are folded by the `/frames` delimiter, on both stores (the local folder and a real S3 API,
 * s3rver on 127.0.0.1). The answer must be what one exists() per video gave before. On S3 the
 * requests the SDK sends are counted: one ListObjectsV2, no HEAD, however many frames there are.
 */
let tmp: string;
let s3: TestBucket;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-export-list-'));
  s3 = await startS3rver('kvq-export-list');
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** S3 requests by command name, counted per HTTP attempt (the innermost step, after retries). */
function countRequests(store: S3MediaStore): Map<string, number> {
  const counts = new Map<string, number>();
  store.client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName);
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'deserialize', name: 'countRequests' },
  );
  return counts;
}

/**
 * Both stores, and the bucket again with pages of 40 keys: S3 pages a listing at 1000 keys (the
 * frame sets of a real library pass that), and with a Delimiter each folded frame set counts as
 * one of them; the small page walks the same continuation tokens with this small library.
 */
/** A store on the test bucket under a fresh prefix; `listPageSize` as S3MediaStore takes it. */
const s3Store = (name: string, listPageSize?: number) =>
  new S3MediaStore({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    prefix: `${name}-${crypto.randomBytes(4).toString('hex')}/`,
    ...(listPageSize ? { listPageSize } : {}),
  });

const stores: [string, () => MediaStore][] = [
  ...bothStores(
    () => tmp,
    () => s3,
  ),
  ['S3MediaStore, pages of 40 keys', () => s3Store('paged', 40)],
];

/**
 * A library like a real one: each video has its files, a frame set of FRAMES JPEGs with its
 * manifest (some also an older `frames` set), and every third one a questions export. A video
 * named `frames-like` checks that an id starting with "frames" is not folded.
 */
const VIDEOS = 24;
const FRAMES = 30;
const ids = [...Array.from({ length: VIDEOS }, (_, i) => `vid${String(i).padStart(2, '0')}`), 'frames-like'];
const withExport = new Set(ids.filter((_, i) => i % 3 === 0).concat('frames-like'));

async function fillLibrary(store: MediaStore): Promise<void> {
  const puts: [string, string][] = [];
  ids.forEach((id, i) => {
    puts.push([videoKey(id, 'video.mp4'), 'mp4'], [videoKey(id, 'thumbnail.jpg'), 'jpg'], [videoKey(id, 'subtitles.en.vtt'), 'WEBVTT']);
    for (let f = 0; f < FRAMES; f++) puts.push([frameKey(id, `frame_${String(f).padStart(5, '0')}.jpg`, 'frames-k1'), 'jpg']);
    puts.push([frameKey(id, 'frames.json', 'frames-k1'), '[]']);
    if (i % 4 === 1) puts.push([frameKey(id, 'frame_00000.jpg', null), 'old set']);
    if (withExport.has(id)) puts.push([questionExportKey(id), '{}']);
  });
  for (let i = 0; i < puts.length; i += 16) await Promise.all(puts.slice(i, i + 16).map(([k, v]) => store.putBuffer(k, v)));
}

describe.each(stores)('%s', (_name, make) => {
  let store: MediaStore;
  beforeAll(async () => {
    store = make();
    await fillLibrary(store);
  }, 120_000);
  afterAll(() => store.close());

  it('list(prefix, { delimiter }) leaves out every key under a frame set and keeps the rest', async () => {
    const all = await store.list(VIDEOS_PREFIX);
    const folded = await store.list(VIDEOS_PREFIX, { delimiter: FRAMES_DELIMITER });
    expect(folded).toEqual(all.filter((k) => !/^videos\/[^/]+\/frames/.test(k)));
    expect(folded).toHaveLength(ids.length * 3 + withExport.size);
    expect(folded).toContain('videos/frames-like/questions.json');
    expect(all.length).toBeGreaterThan(ids.length * FRAMES);
    // any delimiter, as S3 has it: '/' under one video's prefix folds every sub-folder (both sets)
    expect(await store.list('videos/vid01/', { delimiter: '/' })).toEqual([
      'videos/vid01/subtitles.en.vtt',
      'videos/vid01/thumbnail.jpg',
      'videos/vid01/video.mp4',
    ]);
    expect(await store.list('videos/vid01/')).toHaveLength(3 + FRAMES + 2);
    expect(await store.list('videos/missing/', { delimiter: FRAMES_DELIMITER })).toEqual([]);
  });

  it('finds the same export locations as one exists() per video, the videos without an export included', async () => {
    const asked = [...ids, 'no_media_at_all', '../etc', 'vid03/../vid00'];
    const before = new Map<string, string>();
    for (const id of ids) if (await store.exists(questionExportKey(id))) before.set(id, store.location(questionExportKey(id)));
    const found = await questionExportLocations(store, asked);
    expect(found).toEqual(before);
    expect([...found.keys()].sort()).toEqual([...withExport].sort());
    expect(found.get('vid00')).toBe(store.location('videos/vid00/questions.json'));
    expect(found.has('vid01')).toBe(false);
    expect(await questionExportLocations(store, ['vid01', 'vid02'])).toEqual(new Map());
    expect(await questionExportLocations(store, [])).toEqual(new Map());
  });

  it('sees an export written or deleted since the last listing', async () => {
    await store.putBuffer(questionExportKey('vid01'), '{}');
    await store.delete(questionExportKey('vid00'));
    const found = await questionExportLocations(store, ['vid00', 'vid01']);
    expect(found).toEqual(new Map([['vid01', store.location(questionExportKey('vid01'))]]));
    await store.delete(questionExportKey('vid01'));
    await store.putBuffer(questionExportKey('vid00'), '{}');
  });
});

describe('S3MediaStore requests', () => {
  it('one ListObjectsV2 and no HEAD for the whole library, however many frames it has', async () => {
    const store = s3Store('count');
    try {
      await fillLibrary(store);
      const counts = countRequests(store);
      const found = await questionExportLocations(store, ids);
      expect([...found.keys()].sort()).toEqual([...withExport].sort());
      expect(Object.fromEntries(counts)).toEqual({ ListObjectsV2Command: 1 });
      // nothing asked about (no video has questions): no request at all
      counts.clear();
      expect(await questionExportLocations(store, [])).toEqual(new Map());
      expect(counts.size).toBe(0);
    } finally {
      store.close();
    }
  }, 120_000);

  it('walks every page of a listing: with pages of 40 keys, one request per page and the same answer', async () => {
    const store = s3Store('pages', 40);
    try {
      await fillLibrary(store);
      const counts = countRequests(store);
      const all = await store.list(VIDEOS_PREFIX);
      expect(all.length).toBeGreaterThan(ids.length * FRAMES);
      const pages = counts.get('ListObjectsV2Command') ?? 0;
      expect(pages).toBeGreaterThanOrEqual(Math.ceil(all.length / 40));
      expect(pages).toBeLessThanOrEqual(Math.ceil(all.length / 40) + 1);
      counts.clear();
      const found = await questionExportLocations(store, ids);
      expect([...found.keys()].sort()).toEqual([...withExport].sort());
      // the delimited listing: the files beside each frame set plus one entry per folded set
      expect(counts.get('ListObjectsV2Command')).toBeGreaterThan(1);
      expect(counts.get('HeadObjectCommand')).toBeUndefined();
    } finally {
      store.close();
    }
  }, 120_000);

  it('refuses a page size S3 does not have', () => {
    for (const listPageSize of [0, 1001, 2.5, Number.NaN]) {
      expect(() => new S3MediaStore({ bucket: 'b', region: 'us-east-1', forcePathStyle: true, listPageSize })).toThrow(RangeError);
    }
  });
});
