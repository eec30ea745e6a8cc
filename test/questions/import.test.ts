import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Db, migrate } from '../../src/db/database.js';
import { importReviewedQuestions } from '../../src/questions/import.js';
import { finalQuestions } from '../../src/questions/final.service.js';
import { questionCountsByVideo } from '../../src/questions/counts.js';
import { questionExportLocations, readQuestionExport } from '../../src/questions/export.js';
import { LocalMediaStore } from '../../src/storage/index.js';

async function freshDb(): Promise<Db> {
  const db = new Db(':memory:');
  migrate(db);
  await db.run(`INSERT INTO videos (id, title) VALUES ('vid_sample01', 'Sample')`);
  return db;
}

const payload = () => ({
  provider: 'builtin',
  segments: [
    {
      segment_range_start: 0,
      segment_range_end: 30,
      questions: [
        { question_type: 'character', question: 'Who is in the garden?', answer: 'a rabbit', llm_ranking: 2, expert_ranking: 2,
          variants: [{ companion: 'pig', question: 'Oink! Who is in the garden?', chosen: true }] },
        { question_type: 'action', question: 'What does the rabbit dig?', answer: 'a hole', llm_ranking: 1, expert_ranking: 1,
          variants: [
            { companion: 'pig', question: 'Oink oink, what is the rabbit digging?' },
            { companion: 'pig', question: 'Snort! What does bunny dig?', chosen: false },
            { companion: 'bunny', question: 'Hop hop! What is my friend digging?', chosen: true },
          ] },
        { question_type: 'feeling', question: 'How does the rabbit feel?', answer: 'happy', trashed: true },
      ],
    },
    {
      segment_range_start: 30,
      segment_range_end: 60,
      finalized: false,
      questions: [{ question_type: 'outcome', question: 'What happens next?', answer: 'it rains' }],
    },
  ],
});

describe('importReviewedQuestions', () => {
  it('writes segments, questions, variants and picks in one go, idempotently', async () => {
    const db = await freshDb();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'q-import-'));
    const first = await importReviewedQuestions(db, 'vid_sample01', payload(), { dataDir });
    expect(first).toMatchObject({ segments: 2, questions: 4, variants: 4 });
    const again = await importReviewedQuestions(db, 'vid_sample01', payload());
    expect(again).toMatchObject({ segments: 2, questions: 4, variants: 4 });
    expect((await db.first<{ n: number }>('SELECT COUNT(*) AS n FROM review_questions'))!.n).toBe(4);
    expect((await db.first<{ n: number }>('SELECT COUNT(*) AS n FROM persona_variants'))!.n).toBe(4);
    expect((await db.first<{ n: number }>('SELECT COUNT(*) AS n FROM persona_winners'))!.n).toBe(2);

    // only the finalized segment is served; its top-ranked question is the action one
    const base = await finalQuestions(db, 'vid_sample01', null);
    expect(base).toEqual([
      expect.objectContaining({ segment_range_start: 0, segment_range_end: 30, question: 'What does the rabbit dig?', answer: 'a hole',
        expert_ranking: 1, llm_ranking: 1, question_type: 'action', companion: null }),
    ]);
    // bunny's pick belongs to the top question; pig's pick belongs to another one, so pig gets the newest variant
    expect((await finalQuestions(db, 'vid_sample01', 'bunny'))[0]!.question).toBe('Hop hop! What is my friend digging?');
    expect((await finalQuestions(db, 'vid_sample01', 'pig'))[0]!.question).toBe('Snort! What does bunny dig?');
    expect((await finalQuestions(db, 'vid_sample01', 'alligator'))[0]!.question).toBe('What does the rabbit dig?');

    expect((await questionCountsByVideo(db)).get('vid_sample01')).toEqual({ generated: 0, final: 1 });
    const store = new LocalMediaStore(dataDir);
    const file = path.join(dataDir, 'videos', 'vid_sample01', 'questions.json');
    expect(first.file_path).toBe(file);
    expect(await questionExportLocations(store, ['vid_sample01', 'other_video', '../etc'])).toEqual(new Map([['vid_sample01', file]]));
    const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(exported.final.bunny[0].question).toBe('Hop hop! What is my friend digging?');
    expect(JSON.parse((await readQuestionExport(store, 'vid_sample01'))!.toString())).toEqual(exported);
    expect(await readQuestionExport(store, 'other_video')).toBeNull();
    expect(await readQuestionExport(store, '../etc')).toBeNull();
  });

  it('refuses invalid payloads with a readable 400 and leaves earlier data alone', async () => {
    const db = await freshDb();
    await importReviewedQuestions(db, 'vid_sample01', payload());
    const bad = payload();
    (bad.segments[0]!.questions[0] as { question_type: string }).question_type = 'who';
    await expect(importReviewedQuestions(db, 'vid_sample01', bad)).rejects.toThrow(/question_type/);
    const twoChosen = payload();
    (twoChosen.segments[0]!.questions[1] as { variants: { chosen?: boolean }[] }).variants[0]!.chosen = true;
    await expect(importReviewedQuestions(db, 'vid_sample01', twoChosen)).rejects.toThrow(/more than one chosen pig/);
    const overlap = payload();
    overlap.segments[1]!.segment_range_start = 20;
    await expect(importReviewedQuestions(db, 'vid_sample01', overlap)).rejects.toThrow(/overlap/);
    await expect(importReviewedQuestions(db, 'missing_vid', payload())).rejects.toThrow(/not found/);
    expect((await db.first<{ n: number }>('SELECT COUNT(*) AS n FROM review_questions'))!.n).toBe(4);
  });
});
