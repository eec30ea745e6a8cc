import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Db, migrate } from '../../src/db/database.js';
import { MIGRATIONS_DIR, migratePostgres } from '../../src/db/migrate.js';
import { connectDatabase, type DatabaseRoot } from '../../src/db/open.js';
import { PgDatabase } from '../../src/db/postgres.js';
import { finalQuestions } from '../../src/questions/final.service.js';
import { importReviewedQuestions } from '../../src/questions/import.js';
import { saveFinal, updateQuestions } from '../../src/questions/review.service.js';
import { clearVideoQuestions, insertQuestion, replaceSegmentQuestions, setRegenerated } from '../../src/questions/review.repository.js';
import { chooseVariant, clearChoice, deleteVariantsOf, insertVariant } from '../../src/questions/variants.repository.js';
import { servedCacheStats, servedSegments } from '../../src/questions/served-cache.js';
import { createTestDatabase } from '../helpers/pg-cluster.js';

const pgUrl = inject('pgUrl');

/**
 * The served-questions cache on both engines (a real SQLite file, the test run's PostgreSQL):
 * migration 012's triggers move videos.questions_rev on every change finalQuestions can see,
 * and the cache answers only under the revision it was filled under.
 */
const ENGINES: { name: string; available: boolean; open(): Promise<{ db: DatabaseRoot; cleanup(): Promise<void> }> }[] = [
  {
    name: 'SQLite',
    available: true,
    async open() {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-rev-'));
      const db = await connectDatabase({ DATABASE_URL: undefined, DATABASE_POOL_MAX: 1, dataDir });
      return { db, cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    available: Boolean(pgUrl),
    async open() {
      const target = await createTestDatabase(pgUrl!, 'rev');
      const db = await connectDatabase({ DATABASE_URL: target.url, DATABASE_POOL_MAX: 4, dataDir: os.tmpdir() });
      return { db, cleanup: () => target.drop() };
    },
  },
];

const rev = async (db: DatabaseRoot, id: string): Promise<number> => Number((await db.first<{ r: number }>('SELECT questions_rev AS r FROM videos WHERE id = ?', [id]))!.r);
const seg = { start: 0, end: 10 };
const q = (question: string, rank: number | null = null) => ({ question_type: 'action' as const, question, answer: 'a', llm_ranking: 1, expert_ranking: rank, trashed: false });

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`questions_rev and the served cache on ${engine.name}`, () => {
    let db: DatabaseRoot;
    let cleanup: () => Promise<void> = async () => {};
    let n = 0;
    beforeAll(async () => {
      ({ db, cleanup } = await engine.open());
    });
    afterAll(async () => {
      await db?.close();
      await cleanup();
    });

    /** A new video with one finalized segment of two questions ("Top?" ranked first). */
    async function video(): Promise<{ id: string; top: number; second: number }> {
      const id = `rv${engine.name[0]}${n++}`;
      await db.run("INSERT INTO videos (id, title, duration_seconds) VALUES (?, 'V', 60)", [id]);
      expect(await rev(db, id)).toBe(0);
      await importReviewedQuestions(db, id, {
        provider: 'x',
        segments: [{ segment_range_start: 0, segment_range_end: 10, finalized: true, questions: [{ ...q('Top?', 1) }, { ...q('Second?', 2) }] }],
      });
      const ids = await db.all<{ id: number }>('SELECT id FROM review_questions WHERE video_id = ? ORDER BY expert_ranking', [id]);
      return { id, top: Number(ids[0]!.id), second: Number(ids[1]!.id) };
    }

    /** Runs `write` and asserts it moved the video's revision (and only forward). */
    async function bumps(id: string, write: () => Promise<unknown>): Promise<void> {
      const before = await rev(db, id);
      await write();
      expect(await rev(db, id)).toBeGreaterThan(before);
    }

    it('moves on insert, update and delete of segments, questions, variants and picks', async () => {
      const v = await video();
      expect(await rev(db, v.id)).toBeGreaterThan(0);
      // segments
      await bumps(v.id, () => db.run("INSERT INTO review_segments (video_id, start_seconds, end_seconds) VALUES (?, 10, 20)", [v.id]));
      await bumps(v.id, () => saveFinal(db, v.id, [{ segment_range_start: 0, segment_range_end: 10, finalized: false }], 'ex'));
      await bumps(v.id, () => saveFinal(db, v.id, [{ segment_range_start: 0, segment_range_end: 10, finalized: true }], 'ex'));
      await bumps(v.id, () => db.run('DELETE FROM review_segments WHERE video_id = ? AND start_seconds = 10', [v.id]));
      // questions: insert, trash, re-rank, edit, delete
      let extra = 0;
      await bumps(v.id, async () => {
        extra = await insertQuestion(db, v.id, seg, q('Extra?'), { origin: 'expert', provider: null, edited: true, by: 'ex', position: 5 });
      });
      await bumps(v.id, () => updateQuestions(db, v.id, [{ id: extra, trashed: true }], 'ex'));
      await bumps(v.id, () => updateQuestions(db, v.id, [{ id: v.second, expert_ranking: 3 }], 'ex'));
      await bumps(v.id, () => updateQuestions(db, v.id, [{ id: v.top, question: 'Top, edited?' }], 'ex'));
      await bumps(v.id, () => db.run('DELETE FROM review_questions WHERE id = ?', [extra]));
      // variants and picks
      let variant = 0;
      await bumps(v.id, async () => {
        variant = await insertVariant(db, v.top, 'pig', 'Oink, top?', 'x');
      });
      await bumps(v.id, () => db.run('UPDATE persona_variants SET question = ? WHERE id = ?', ['Oink oink?', variant]));
      await bumps(v.id, () => chooseVariant(db, v.id, seg, 'pig', variant, 'ex'));
      await bumps(v.id, () => chooseVariant(db, v.id, seg, 'pig', variant, 'ex2')); // ON CONFLICT DO UPDATE
      await bumps(v.id, () => clearChoice(db, v.id, seg, 'pig'));
      await bumps(v.id, () => deleteVariantsOf(db, v.top));
      expect((await finalQuestions(db, v.id, 'pig'))[0]).toMatchObject({ question: 'Top, edited?', companion: null });
      // a regenerated question, then the video's questions cleared (a new generation run)
      await bumps(v.id, () => setRegenerated(db, v.top, { question_type: 'feeling', question: 'Regenerated?', answer: 'b' }, 'x', 'ex'));
      expect((await finalQuestions(db, v.id, null))[0]).toMatchObject({ question: 'Regenerated?', answer: 'b' });
      await bumps(v.id, () => clearVideoQuestions(db, v.id));
      expect(await finalQuestions(db, v.id, null)).toEqual([]);
    });

    it('moves when a question is deleted with its variants and pick by cascade, and when a segment set is replaced', async () => {
      const v = await video();
      const variant = await insertVariant(db, v.top, 'bunny', 'Hop, top?', 'x');
      await chooseVariant(db, v.id, seg, 'bunny', variant, 'ex');
      expect((await finalQuestions(db, v.id, 'bunny'))[0]).toMatchObject({ question: 'Hop, top?', companion: 'bunny' });
      // the expert's set without the top question: it goes, its variant and pick follow by cascade
      await bumps(v.id, () => db.transaction((tx) => replaceSegmentQuestions(tx, v.id, seg, [{ ...q('Second?', 2), id: v.second }], 'ex')));
      expect(await db.first('SELECT COUNT(*) AS n FROM persona_variants WHERE id = ?', [variant])).toEqual({ n: 0 });
      expect(await db.first('SELECT COUNT(*) AS n FROM persona_winners WHERE video_id = ?', [v.id])).toEqual({ n: 0 });
      expect(await finalQuestions(db, v.id, 'bunny')).toMatchObject([{ question: 'Second?', question_id: v.second, companion: null }]);
      // a whole segment deleted takes its questions along
      await bumps(v.id, () => db.run('DELETE FROM review_segments WHERE video_id = ?', [v.id]));
      expect(await finalQuestions(db, v.id, 'bunny')).toEqual([]);
    });

    it('moves both videos when a row moves from one video to another, and survives deleting a video with questions', async () => {
      const a = await video();
      const b = await video();
      const [ra, rb] = [await rev(db, a.id), await rev(db, b.id)];
      // a variant moved to a question of the other video
      const variant = await insertVariant(db, a.second, 'pig', 'Oink?', 'x');
      const [ra1, rb1] = [await rev(db, a.id), await rev(db, b.id)];
      expect([ra1 > ra, rb1 === rb]).toEqual([true, true]);
      await db.run('UPDATE persona_variants SET question_id = ? WHERE id = ?', [b.second, variant]);
      expect(await rev(db, a.id)).toBeGreaterThan(ra1);
      expect(await rev(db, b.id)).toBeGreaterThan(rb1);
      // a question moved to the other video's segment (same range)
      await db.run('DELETE FROM persona_variants WHERE id = ?', [variant]);
      const [ra2, rb2] = [await rev(db, a.id), await rev(db, b.id)];
      await db.run('UPDATE review_questions SET video_id = ? WHERE id = ?', [b.id, a.second]);
      expect(await rev(db, a.id)).toBeGreaterThan(ra2);
      expect(await rev(db, b.id)).toBeGreaterThan(rb2);
      // an empty segment moved to the other video
      await db.run("INSERT INTO review_segments (video_id, start_seconds, end_seconds) VALUES (?, 30, 40)", [a.id]);
      const [ra3, rb3] = [await rev(db, a.id), await rev(db, b.id)];
      await db.run('UPDATE review_segments SET video_id = ? WHERE video_id = ? AND start_seconds = 30', [b.id, a.id]);
      expect(await rev(db, a.id)).toBeGreaterThan(ra3);
      expect(await rev(db, b.id)).toBeGreaterThan(rb3);
      // deleting a video: the cascade's triggers find no row to bump and do not fail
      await db.run('DELETE FROM videos WHERE id = ?', [b.id]);
      expect(await db.first('SELECT COUNT(*) AS n FROM review_questions WHERE video_id = ?', [b.id])).toEqual({ n: 0 });
    });

    it('answers a repeated request from the cache, frozen, and reloads after any write', async () => {
      const v = await video();
      const s0 = servedCacheStats(db);
      const first = await finalQuestions(db, v.id, null);
      const again = await finalQuestions(db, v.id, null);
      expect(again).toBe(first); // the same frozen entry
      expect(servedCacheStats(db)).toMatchObject({ loads: s0.loads + 1, hits: s0.hits + 1 });
      expect(Object.isFrozen(first) && Object.isFrozen(first[0])).toBe(true);
      expect(() => {
        (first[0] as { question: string }).question = 'changed';
      }).toThrow(TypeError);
      // the companion is part of the key
      await finalQuestions(db, v.id, 'pig');
      expect(servedCacheStats(db).loads).toBe(s0.loads + 2);

      await updateQuestions(db, v.id, [{ id: v.top, trashed: true }], 'ex');
      const after = await finalQuestions(db, v.id, null);
      expect(after).toMatchObject([{ question: 'Second?', question_id: v.second }]);
      expect(servedCacheStats(db).loads).toBe(s0.loads + 3);
      expect(await finalQuestions(db, v.id, null)).toBe(after);
      expect(servedCacheStats(db).hits).toBe(s0.hits + 2);
    });

    it('labels an entry with the revision read before the selection: a write in between leaves it stale, never wrong', async () => {
      const v = await video();
      const real = await finalQuestions(db, v.id, null);
      const s0 = servedCacheStats(db);
      // a miss whose selection runs after another instance's write: its result is newer than the revision it is stored under
      const other = `${v.id}-companion`;
      const raced = await servedSegments(db, v.id, other, async () => {
        await updateQuestions(db, v.id, [{ id: v.top, question: 'Written meanwhile?' }], 'ex');
        return [{ ...real[0]!, question: 'Written meanwhile?' }];
      });
      expect(raced[0]!.question).toBe('Written meanwhile?');
      // the next request reads the moved revision and reloads instead of trusting the entry
      let loaded = false;
      const next = await servedSegments(db, v.id, other, async () => {
        loaded = true;
        return [{ ...real[0]!, question: 'reloaded' }];
      });
      expect([loaded, next[0]!.question]).toEqual([true, 'reloaded']);
      expect(servedCacheStats(db).loads).toBe(s0.loads + 2);
      // and the cached base entry (older revision) is not served either
      expect((await finalQuestions(db, v.id, null))[0]!.question).toBe('Written meanwhile?');
    });

    it('tells two lives of one video id apart: deleted and added again, its revision restarts at 0', async () => {
      const v = await video();
      const first = await finalQuestions(db, v.id, null);
      const r = await rev(db, v.id);
      await db.run('DELETE FROM videos WHERE id = ?', [v.id]);
      await db.run("INSERT INTO videos (id, title, duration_seconds, created_at) VALUES (?, 'V again', 60, '2999-01-01T00:00:00.000Z')", [v.id]);
      await importReviewedQuestions(db, v.id, { segments: [{ segment_range_start: 0, segment_range_end: 10, questions: [q('Another life?', 1)] }] });
      // as if as many edits had happened since: same id, same revision, other questions
      await db.run('UPDATE videos SET questions_rev = ? WHERE id = ?', [r, v.id]);
      const second = await finalQuestions(db, v.id, null);
      expect(second).not.toBe(first);
      expect(second).toMatchObject([{ question: 'Another life?' }]);
    });

    it('never caches inside a transaction (an uncommitted revision can be rolled back)', async () => {
      const v = await video();
      const s0 = servedCacheStats(db);
      await expect(
        db.transaction(async (tx) => {
          await updateQuestions(tx, v.id, [{ id: v.top, question: 'Rolled back?' }], 'ex');
          expect((await finalQuestions(tx, v.id, null))[0]!.question).toBe('Rolled back?');
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(servedCacheStats(db)).toMatchObject({ loads: s0.loads, hits: s0.hits });
      expect((await finalQuestions(db, v.id, null))[0]!.question).toBe('Top?');
    });
  });
}

/** The migrations up to 011 in a folder of their own: a database as the release before 012 left it. */
function migrationsBefore012(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-mig011-'));
  for (const f of fs.readdirSync(MIGRATIONS_DIR)) if (Number(f.slice(0, 3)) <= 11) fs.copyFileSync(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
  return dir;
}

const SEED = [
  "INSERT INTO videos (id, title, duration_seconds) VALUES ('old', 'Old', 60)",
  "INSERT INTO review_segments (video_id, start_seconds, end_seconds, finalized) VALUES ('old', 0, 10, 1)",
  "INSERT INTO review_questions (video_id, start_seconds, end_seconds, question_type, question, answer, origin) VALUES ('old', 0, 10, 'action', 'Old?', 'a', 'expert')",
];

describe('migration 012 on a database that already has questions', () => {
  let dir: string;
  beforeAll(() => {
    dir = migrationsBefore012();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('SQLite: starts every revision at 0, then moves it on the next write', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-mig012-'));
    const file = path.join(dataDir, 'app.sqlite');
    try {
      const old = new Db(file);
      migrate(old, dir);
      for (const sql of SEED) await old.run(sql);
      await old.close();
      const db = new Db(file);
      expect(migrate(db)).toEqual(['012-questions-rev.sql']);
      expect(await db.first("SELECT questions_rev AS r FROM videos WHERE id = 'old'")).toEqual({ r: 0 });
      expect((await finalQuestions(db, 'old', null))[0]!.question).toBe('Old?');
      await db.run("UPDATE review_questions SET question = 'New?' WHERE video_id = 'old'");
      expect(await db.first("SELECT questions_rev AS r FROM videos WHERE id = 'old'")).toEqual({ r: 1 });
      expect((await finalQuestions(db, 'old', null))[0]!.question).toBe('New?');
      await db.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!pgUrl)('PostgreSQL: starts every revision at 0, then moves it on the next write', async () => {
    const target = await createTestDatabase(pgUrl!, 'mig012');
    const db = new PgDatabase({ url: target.url, poolMax: 2 });
    try {
      await migratePostgres(db, dir);
      for (const sql of SEED) await db.run(sql);
      expect(await migratePostgres(db)).toEqual(['012-questions-rev.sql']);
      expect(await db.first("SELECT questions_rev AS r FROM videos WHERE id = 'old'")).toEqual({ r: 0 });
      expect((await finalQuestions(db, 'old', null))[0]!.question).toBe('Old?');
      await db.run("UPDATE review_questions SET question = 'New?' WHERE video_id = 'old'");
      expect(await db.first("SELECT questions_rev AS r FROM videos WHERE id = 'old'")).toEqual({ r: 1 });
      expect((await finalQuestions(db, 'old', null))[0]!.question).toBe('New?');
    } finally {
      await db.close();
      await target.drop();
    }
  });
});
