import fs from 'node:fs';
import path from 'node:path';
import type { Response } from 'superagent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginChild, startTestApp, type TestApp } from '../helpers/app.js';
import { SAMPLE_DIR, readSampleManifest } from '../../src/sample/sample.service.js';

// Through the real routes: every family's tablet lists the imported sample and can play it.

const manifest = readSampleManifest();
const ID = manifest.video_id;
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ SAMPLE_IMPORT: 'true' });
});
afterAll(async () => {
  await t?.close();
});

describe('the sample for every family', () => {
  it('is listed by /api/kids_videos for two unrelated families, with media that plays', async () => {
    const video = fs.readFileSync(path.join(SAMPLE_DIR, 'media', manifest.files.video));
    for (const n of [1, 2]) {
      const family = await createFamily(t, { first_name: `Kid${n}` });
      const tablet = await loginChild(t.agent(), family);
      const res = await tablet.get('/api/kids_videos');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const item = res.body.videos.find((v: { video_id: string }) => v.video_id === ID);
      expect(item).toMatchObject({ video_id: ID, title: manifest.title, duration: '0:51' });
      expect(res.body.count).toBe(res.body.videos.length);

      // a seekable file: Range requests answer 206 with the right bytes
      const part = await tablet.get(item.local_path).set('Range', 'bytes=0-99').buffer(true).parse(binary);
      expect(part.status).toBe(206);
      expect(Buffer.compare(part.body as Buffer, video.subarray(0, 100))).toBe(0);
      const thumb = await tablet.get(item.thumbnail).buffer(true).parse(binary);
      expect(thumb.status).toBe(200);
      expect((thumb.body as Buffer).subarray(0, 2).toString('hex')).toBe('ffd8');
    }
  });

  it('is not listed for anonymous callers', async () => {
    const res = await t.agent().get('/api/kids_videos');
    expect(res.status).toBe(401);
  });
});

/** collects a binary body (supertest only buffers text and JSON by itself) */
function binary(res: Response, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
