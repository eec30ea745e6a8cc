import fs from 'node:fs';
import path from 'node:path';
import type { Response } from 'superagent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginChild, loginExpert, startTestApp, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { accountsDeps } from '../../src/accounts/deps.js';
import { SAMPLE_DIR, readSampleManifest } from '../../src/sample/sample.service.js';

// Through the real routes: the demo family plays the sample with no keys; another family sees it
// only once its expert has it (claimed here), like every library video.

const manifest = readSampleManifest();
const ID = manifest.video_id;
let t: TestApp;
let demo: TestFamily;

beforeAll(async () => {
  t = await startTestApp({ SAMPLE_IMPORT: 'true', DEMO_SEED: 'true' });
  // the demo codes are printed once at start; give the demo family a known code to log in with
  const { accounts } = accountsDeps({ db: t.db, config: t.config });
  const child = (await t.db.first<{ id: string; parent_id: string }>("SELECT id, parent_id FROM children WHERE expert_id = 'demo'"))!;
  await accounts.codes.set('parent', child.parent_id, '246810');
  demo = {
    expert: { expert_id: 'demo', display_name: 'Demo Parent', code: '' },
    parentId: child.parent_id,
    parentCode: '246810',
    child: { child_id: child.id, expert_id: 'demo', parent_id: child.parent_id, first_name: 'Sam', interaction_mode: 'flexible' },
  };
});
afterAll(async () => {
  await t?.close();
});

async function expectPlayable(tablet: Agent): Promise<void> {
  const video = fs.readFileSync(path.join(SAMPLE_DIR, 'media', manifest.files.video));
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
  expect((await tablet.get(`/api/final-questions/${ID}?companion=bunny`)).body.segments.length).toBeGreaterThan(0);
}

describe('the sample, a library video like any other', () => {
  it('plays for the demo family out of the box (assigned to the demo expert on first start)', async () => {
    expect(await t.db.all('SELECT expert_id FROM video_assignments WHERE video_id = ?', [ID])).toEqual([{ expert_id: 'demo' }]);
    await expectPlayable(await loginChild(t.agent(), demo));
  });

  it('reaches another family only through its expert', async () => {
    const family = await createFamily(t, { first_name: 'Kid' });
    const tablet = await loginChild(t.agent(), family);
    const before = await tablet.get('/api/kids_videos');
    expect(before.body.videos.map((v: { video_id: string }) => v.video_id)).not.toContain(ID);
    expect((await tablet.get(`/media/videos/${ID}/video`)).status).toBe(403);
    expect((await tablet.get(`/api/final-questions/${ID}`)).status).toBe(403);
    // the family's expert finds it among the available videos and claims it
    const expert = await loginExpert(t.agent(), family.expert.code);
    const available = await expert.get('/api/expert/videos/available');
    expect(available.body.videos.map((v: { video_id: string }) => v.video_id)).toContain(ID);
    expect((await expert.post(`/api/expert/videos/${ID}/claim`)).status).toBe(200);
    await expectPlayable(tablet);
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
