import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { servedCacheStats } from '../../src/questions/served-cache.js';
import { createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/pg-cluster.js';
import { addVideo, assignVideo } from './fixtures.js';

const pgUrl = inject('pgUrl');

/**
 * GET /api/final-questions through the per-instance cache (issue #16), on two app instances
 * sharing one database: a SQLite file opened by both, or one PostgreSQL database. Instance A
 * serves (and caches), the writes go through the real routes on A or B, and A's very next
 * response must show them; the cache's counters show which requests ran the selection.
 */
const SETUPS: { name: string; available: boolean; start(): Promise<{ a: TestApp; b: TestApp; cleanup(): Promise<void> }> }[] = [
  {
    name: 'one SQLite file',
    available: true,
    async start() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-served-'));
      const a = await startTestApp({}, dir);
      const b = await startTestApp({}, dir);
      return { a, b, cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'one PostgreSQL database',
    available: Boolean(pgUrl),
    async start() {
      const target = await createTestDatabase(pgUrl!, 'served');
      const a = await startTestApp({ DATABASE_URL: target.url });
      const b = await startTestApp({ DATABASE_URL: target.url });
      return { a, b, cleanup: () => target.drop() };
    },
  },
];

const q = (type: string, rank: number, text: string) => ({ question_type: type, question: text, answer: `${type} answer`, rank });

for (const setup of SETUPS) {
  describe.skipIf(!setup.available)(`served questions cache, two instances on ${setup.name}`, () => {
    let a: TestApp;
    let b: TestApp;
    let cleanup: () => Promise<void> = async () => {};
    let fam: TestFamily;
    let expertA: Agent;
    let expertB: Agent;
    let child: Agent;
    let n = 0;

    beforeAll(async () => {
      ({ a, b, cleanup } = await setup.start());
      fam = await createFamily(a);
      expertA = await loginExpert(a.agent(), fam.expert.code);
      expertB = await loginExpert(b.agent(), fam.expert.code);
      child = await loginChild(a.agent(), fam);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await cleanup();
    });

    /** A video of the family's expert with two generated segments of three questions each. */
    async function video(): Promise<string> {
      const id = `served${n++}`;
      await addVideo(a.db, a.dataDir, { id, seconds: 20, frames: false });
      await assignVideo(a.db, id, fam.expert.expert_id);
      const admin = await loginAdmin(a.agent());
      const res = await admin.post('/api/submit-questions').send({
        video_id: id,
        questions: [0, 10].map((s) => ({
          segment_range_start: s,
          segment_range_end: s + 10,
          provider: 'openai',
          questions: [q('character', 1, `Who is it at ${s}?`), q('feeling', 2, `How does she feel at ${s}?`), q('action', 3, `What does she do at ${s}?`)],
        })),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return id;
    }

    /** The child's GET on A, with how many selections it ran on A. */
    async function served(id: string, companion?: string): Promise<{ body: Record<string, unknown>; questions: string[]; loads: number }> {
      const before = servedCacheStats(a.db).loads;
      const res = await child.get(`/api/final-questions/${id}`).query(companion ? { companion } : {});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const segments = res.body.segments as { question: string }[];
      return { body: res.body, questions: segments.map((s) => s.question), loads: servedCacheStats(a.db).loads - before };
    }

    const rev = async (id: string) => Number((await a.db.first<{ r: number }>('SELECT questions_rev AS r FROM videos WHERE id = ?', [id]))!.r);

    async function questionIds(id: string, start: number): Promise<{ id: number; question: string }[]> {
      return a.db.all<{ id: number; question: string }>(
        'SELECT id, question FROM review_questions WHERE video_id = ? AND start_seconds = ? ORDER BY llm_ranking',
        [id, start],
      );
    }

    it('serves a repeated request from the cache and every route write right after it (finalize, re-rank, trash, edit, pick, un-finalize)', async () => {
      const id = await video();
      expect(await served(id)).toMatchObject({ body: { success: false, segments: [] }, loads: 1 });
      expect(await served(id)).toMatchObject({ body: { success: false }, loads: 0 });

      const fin = await expertA.post('/api/save-final-questions').send({ video_id: id, segments: [{ segment_range_start: 0, segment_range_end: 10, finalized: true }] });
      expect(fin.status, JSON.stringify(fin.body)).toBe(200);
      expect(fin.body.final).toMatchObject([{ question: 'Who is it at 0?' }]);
      expect(await a.db.first('SELECT finalized FROM review_segments WHERE video_id = ? AND start_seconds = 0', [id])).toEqual({ finalized: 1 });
      // the save route's own reply (`final`) and export already reloaded A's entry under the new revision
      expect(await served(id)).toMatchObject({ body: { success: true, segments: [{ segment_range_start: 0, question: 'Who is it at 0?' }] }, loads: 0 });
      expect(await served(id)).toMatchObject({ questions: ['Who is it at 0?'], loads: 0 });

      const [who, feel] = await questionIds(id, 0);
      const edit = async (patch: Record<string, unknown>) => {
        const before = await rev(id);
        const res = await expertA.post(`/api/expert/video/${id}/update-questions`).send({ questions: [patch] });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(await rev(id)).toBeGreaterThan(before);
      };
      await edit({ id: feel!.id, expert_ranking: 1 });
      expect(await served(id)).toMatchObject({ questions: ['How does she feel at 0?'], loads: 1 });
      await edit({ id: feel!.id, trashed: true });
      expect(await served(id)).toMatchObject({ questions: ['Who is it at 0?'], loads: 1 });
      await edit({ id: who!.id, question: 'Who is in the story?' });
      expect(await served(id)).toMatchObject({ questions: ['Who is in the story?'], loads: 1 });
      expect(await served(id)).toMatchObject({ questions: ['Who is in the story?'], loads: 0 });
      expect(await a.db.first('SELECT question, trashed FROM review_questions WHERE id = ?', [who!.id])).toEqual({ question: 'Who is in the story?', trashed: 0 });

      expect(await served(id, 'pig')).toMatchObject({ body: { companion: 'pig', segments: [{ companion: null }] }, loads: 1 });
      const pick = await expertA
        .post(`/api/expert/video/${id}/persona-variants`)
        .send({ custom: [{ question_id: who!.id, companion: 'pig', question: 'Oink! Who is in the story?', chosen: true }] });
      expect(pick.status, JSON.stringify(pick.body)).toBe(200);
      expect(await served(id, 'pig')).toMatchObject({ questions: ['Oink! Who is in the story?'], body: { segments: [{ companion: 'pig' }] }, loads: 1 });
      // one revision per video: the pick made the base wording's entry stale too (reloaded, same text)
      expect(await served(id)).toMatchObject({ questions: ['Who is in the story?'], loads: 1 });
      // the staff view of the same data goes through the same cache
      const staff = await expertA.get(`/api/expert/video/${id}/final-questions`).query({ companion: 'pig' });
      expect(staff.body.segments).toMatchObject([{ question: 'Oink! Who is in the story?' }]);

      const unfin = await expertA.post('/api/save-final-questions').send({ video_id: id, segments: [{ segment_range_start: 0, segment_range_end: 10, finalized: false }] });
      expect(unfin.status, JSON.stringify(unfin.body)).toBe(200);
      expect(unfin.body.final).toEqual([]);
      expect(await served(id)).toMatchObject({ body: { success: false, segments: [] }, loads: 0 });
      // the export reads inside a transaction (never cached): the companion's entry reloads on its next request
      expect(await served(id, 'pig')).toMatchObject({ body: { success: false, segments: [] }, loads: 1 });
    });

    it("shows an edit made on instance B in instance A's very next response", async () => {
      const id = await video();
      const fin = await expertB.post('/api/save-final-questions').send({
        video_id: id,
        segments: [
          { segment_range_start: 0, segment_range_end: 10, finalized: true },
          { segment_range_start: 10, segment_range_end: 20, finalized: true },
        ],
      });
      expect(fin.status, JSON.stringify(fin.body)).toBe(200);
      expect(await served(id)).toMatchObject({ questions: ['Who is it at 0?', 'Who is it at 10?'], loads: 1 });
      expect(await served(id)).toMatchObject({ questions: ['Who is it at 0?', 'Who is it at 10?'], loads: 0 });

      const [who] = await questionIds(id, 10);
      const onB = await expertB.post(`/api/expert/video/${id}/update-questions`).send({ questions: [{ id: who!.id, question: 'Who came hopping by?' }] });
      expect(onB.status, JSON.stringify(onB.body)).toBe(200);
      expect(await served(id)).toMatchObject({ questions: ['Who is it at 0?', 'Who came hopping by?'], loads: 1 });
      expect(await served(id)).toMatchObject({ loads: 0 });

      const unfin = await expertB.post('/api/save-final-questions').send({ video_id: id, segments: [{ segment_range_start: 0, segment_range_end: 10, finalized: false }] });
      expect(unfin.status, JSON.stringify(unfin.body)).toBe(200);
      expect(await served(id)).toMatchObject({ questions: ['Who came hopping by?'], loads: 1 });
      expect(await a.db.first('SELECT finalized FROM review_segments WHERE video_id = ? AND start_seconds = 0', [id])).toEqual({ finalized: 0 });
    });
  });
}
