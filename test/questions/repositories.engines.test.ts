import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase, type DatabaseRoot } from '../../src/db/open.js';
import { createTestDatabase } from '../helpers/pg-cluster.js';
import { importReviewedQuestions } from '../../src/questions/import.js';
import { finalQuestions } from '../../src/questions/final.service.js';
import { questionCountsByVideo } from '../../src/questions/counts.js';
import { storeSubmitted } from '../../src/questions/submit.service.js';
import { reviewState, saveFinal, saveAnnotations, listAnnotations, updateQuestions } from '../../src/questions/review.service.js';
import { listVariants } from '../../src/questions/variants.repository.js';
import { AttemptsRepository } from '../../src/quiz/attempts.repository.js';
import { ClassesRepository } from '../../src/code-quiz/classes.repository.js';
import { ProblemsRepository } from '../../src/code-quiz/problems.repository.js';
import { ActivityRepository } from '../../src/code-quiz/activity.repository.js';

const pgUrl = inject('pgUrl');

/**
 * The same repository calls on both engines (the route tests run on SQLite): SQL that only one
 * engine accepts (boolean aggregates, RETURNING, ON CONFLICT, UNION ordering) fails here.
 */
const ENGINES: { name: string; available: boolean; open(): Promise<{ db: DatabaseRoot; cleanup(): Promise<void> }> }[] = [
  {
    name: 'SQLite',
    available: true,
    async open() {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-repos-'));
      const db = await connectDatabase({ DATABASE_URL: undefined, DATABASE_POOL_MAX: 1, dataDir });
      return { db, cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    available: Boolean(pgUrl),
    async open() {
      const target = await createTestDatabase(pgUrl!, 'asyncb');
      const db = await connectDatabase({ DATABASE_URL: target.url, DATABASE_POOL_MAX: 4, dataDir: os.tmpdir() });
      return { db, cleanup: () => target.drop() };
    },
  },
];

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`questions, quiz and code-quiz repositories on ${engine.name}`, () => {
    let db: DatabaseRoot;
    let cleanup: () => Promise<void> = async () => {};
    beforeAll(async () => {
      ({ db, cleanup } = await engine.open());
      await db.run("INSERT INTO experts (id, display_name) VALUES ('ex', 'Ex')");
      await db.run("INSERT INTO parents (id, expert_id, display_name) VALUES ('pa', 'ex', 'P')");
      await db.run("INSERT INTO children (id, first_name, last_name, expert_id, parent_id) VALUES ('kid123', 'Sam', 'S', 'ex', 'pa')");
      await db.run("INSERT INTO videos (id, title, duration_seconds, state) VALUES ('vid', 'V', 60, 'downloaded')");
    });
    afterAll(async () => {
      await db?.close();
      await cleanup();
    });

    it('questions: import, final, counts, submit, review, annotations', async () => {
      const summary = await importReviewedQuestions(db, 'vid', {
        provider: 'x',
        segments: [
          {
            segment_range_start: 0,
            segment_range_end: 30,
            questions: [
              {
                question_type: 'action',
                question: 'Q1?',
                answer: 'a',
                llm_ranking: 1,
                expert_ranking: 1,
                variants: [{ companion: 'pig', question: 'Oink Q1?', chosen: true }],
              },
              { question_type: 'feeling', question: 'Q2?', answer: 'b', llm_ranking: 2 },
            ],
          },
        ],
      });
      expect(summary).toMatchObject({ segments: 1, questions: 2, variants: 1 });
      expect((await finalQuestions(db, 'vid', 'pig'))[0]).toMatchObject({ question: 'Oink Q1?', companion: 'pig' });
      expect((await questionCountsByVideo(db)).get('vid')).toEqual({ generated: 0, final: 1 });
      expect((await listVariants(db, 'vid'))[0]).toMatchObject({ chosen: true });
      await storeSubmitted(db, 'vid', [
        {
          segment_range_start: 30,
          segment_range_end: 60,
          provider: 'p',
          model: null,
          questions: [{ question_type: 'action', question: 'Q3?', answer: 'c', llm_ranking: 1 }],
        },
      ]);
      expect((await questionCountsByVideo(db)).get('vid')).toEqual({ generated: 1, final: 1 });
      await expect(
        storeSubmitted(db, 'vid', [
          {
            segment_range_start: 20,
            segment_range_end: 40,
            provider: 'p',
            model: null,
            questions: [{ question_type: 'action', question: 'Q4?', answer: 'd', llm_ranking: 1 }],
          },
        ]),
      ).rejects.toThrow(/overlap/);
      const state = await reviewState(db, 'vid');
      expect(state.map((s) => [s.segment_range_start, s.finalized, s.questions.length])).toEqual([
        [0, true, 2],
        [30, false, 1],
      ]);
      await saveFinal(db, 'vid', [{ segment_range_start: 30, segment_range_end: 60, finalized: true }] as never, 'ex');
      expect(await finalQuestions(db, 'vid', null)).toHaveLength(2);
      const q = state[0]!.questions[1]!;
      const [edited] = await updateQuestions(db, 'vid', [{ id: q.id, trashed: true }] as never, 'ex');
      expect(edited).toMatchObject({ id: q.id, trashed: true });
      await saveAnnotations(db, 'vid', [{ question_id: q.id, note: 'hi' }, { note: 'video note' }] as never, 'ex');
      await saveAnnotations(db, 'vid', [{ question_id: q.id, note: 'changed' }] as never, 'ex');
      expect((await listAnnotations(db, 'vid')).map((a) => [a.question_id, a.note])).toEqual([
        [null, 'video note'],
        [q.id, 'changed'],
      ]);
    });

    it('quiz: attempts with answers and checkpoints', async () => {
      const repo = new AttemptsRepository(db);
      await repo.putCheckpoint({
        child_id: 'kid123',
        video_id: 'vid',
        position_seconds: 5,
        furthest_seconds: 5,
        duration_seconds: 60,
        watch_minutes: 0.1,
        interaction_mode: null,
        companion: null,
        total_retries: 0,
        details_json: '[]',
      });
      const again = await repo.putCheckpoint({
        child_id: 'kid123',
        video_id: 'vid',
        position_seconds: 9,
        furthest_seconds: 9,
        duration_seconds: 60,
        watch_minutes: 0.2,
        interaction_mode: null,
        companion: null,
        total_retries: 0,
        details_json: '[]',
      });
      expect(again.position_seconds).toBe(9);
      const id = await repo.save(
        {
          child_id: 'kid123',
          video_id: 'vid',
          video_title: 'V',
          companion: null,
          interaction_mode: 'flexible',
          percentage: 50,
          total_retries: 1,
          watch_minutes: 1,
          question_count: 2,
          correct_count: 1,
          almost_count: 0,
          wrong_count: 1,
        },
        [
          {
            question: 'Q1?',
            question_type: 'action',
            expected: 'a',
            user_answer: 'a',
            status: 'correct',
            similarity: 1,
            segment_range_start: 0,
            segment_range_end: 30,
            retries: 0,
            extra_json: null,
          },
          {
            question: 'Q2?',
            question_type: null,
            expected: 'b',
            user_answer: 'x',
            status: 'wrong',
            similarity: 0,
            segment_range_start: null,
            segment_range_end: null,
            retries: 1,
            extra_json: null,
          },
        ],
      );
      expect(typeof id).toBe('number');
      expect(await repo.checkpoints(['kid123'])).toEqual([]);
      const [a] = await repo.attempts({ childIds: ['kid123'], limit: 5 });
      expect(a).toMatchObject({ id, percentage: 50 });
      expect((await repo.answersByAttempt([id])).get(id)!.map((r) => r.position)).toEqual([0, 1]);
      // a save is all or nothing (on PostgreSQL up to 25 answers are one statement): an answer the
      // table refuses leaves no attempt and keeps the checkpoint
      const attemptsBefore = (await repo.attempts({ childIds: ['kid123'], limit: 100 })).length;
      await repo.putCheckpoint({ child_id: 'kid123', video_id: 'vid', position_seconds: 3, furthest_seconds: 3, duration_seconds: 60, watch_minutes: 0, interaction_mode: null, companion: null, total_retries: 0, details_json: '[]' });
      const answer = { question: 'Q?', question_type: null, expected: 'a', user_answer: 'a', status: 'correct', similarity: 1, segment_range_start: 0, segment_range_end: 10, retries: 0, extra_json: null };
      const attemptFields = { child_id: 'kid123', video_id: 'vid', video_title: 'V', companion: null, interaction_mode: 'flexible', percentage: 100, total_retries: 0, watch_minutes: 1, question_count: 2, correct_count: 2, almost_count: 0, wrong_count: 0 };
      await expect(repo.save(attemptFields, [answer, { ...answer, retries: -1 }])).rejects.toThrow();
      expect(await repo.attempts({ childIds: ['kid123'], limit: 100 })).toHaveLength(attemptsBefore);
      expect(await repo.checkpoints(['kid123'])).toHaveLength(1);
      const saved = await repo.save({ ...attemptFields, question_count: 0, correct_count: 0, percentage: null }, []);
      expect((await repo.answersByAttempt([saved])).get(saved) ?? []).toEqual([]);
      expect(await repo.checkpoints(['kid123'])).toEqual([]);
      expect(await repo.attempts({ childIds: ['kid123'], limit: 100 })).toHaveLength(attemptsBefore + 1);

      // what a save checks, in one query: the child, its mode, the video and the expert's library
      const target = { id: 'kid123', expert_id: 'ex', parent_id: 'pa', active: 1, interaction_mode: 'flexible', video_title: 'V' };
      expect(await repo.quizTarget('kid123', 'vid')).toEqual({ ...target, in_library: 0 });
      await db.run("INSERT INTO video_claims (video_id, expert_id) VALUES ('vid', 'ex')");
      expect(await repo.quizTarget('kid123', 'vid')).toEqual({ ...target, in_library: 1 });
      await db.run("DELETE FROM video_claims WHERE video_id = 'vid'");
      await db.run("INSERT INTO video_assignments (video_id, expert_id) VALUES ('vid', 'ex')");
      expect(await repo.quizTarget('kid123', 'vid')).toEqual({ ...target, in_library: 1 });
      await db.run("UPDATE videos SET state = 'downloading' WHERE id = 'vid'");
      expect(await repo.quizTarget('kid123', 'vid')).toEqual({ ...target, in_library: 0 });
      await db.run("UPDATE videos SET state = 'downloaded' WHERE id = 'vid'");
      await db.run("DELETE FROM video_assignments WHERE video_id = 'vid'");
      expect(await repo.quizTarget('kid123', 'no-such-video')).toEqual({ ...target, video_title: null, in_library: 0 });
      expect(await repo.quizTarget('nobody', 'vid')).toBeUndefined();
      expect(await repo.expertExists('ex')).toBe(true);
      expect((await repo.videoTitles(['vid'])).get('vid')).toBe('V');
    });

    it('code quiz: classes, problems with tests, activity and progress', async () => {
      const classes = new ClassesRepository(db);
      const cls = await classes.create('ex', 'Club', '');
      expect(await classes.enrol(cls.class_id, 'kid123')).toBe(true);
      expect(await classes.enrol(cls.class_id, 'kid123')).toBe(false);
      expect(await classes.enrolActiveChildrenOf(cls.class_id, 'ex')).toBe(0);
      expect((await classes.enrolmentCounts([cls.class_id])).get(cls.class_id)).toBe(1);
      expect((await classes.update(cls.class_id, { name: 'Club 2' })).name).toBe('Club 2');
      const problems = new ProblemsRepository(db);
      const p = await problems.create(cls.class_id, {
        title: 't',
        prompt: 'p',
        language: 'python',
        starter_code: '',
        solution: 'print(1)',
        tests: [{ stdin: '', expected_stdout: '1\n', hidden: false }],
        hints: [],
      });
      expect((await problems.update(p.problem_id, { ...p, title: 't2' })).title).toBe('t2');
      expect(await problems.listByClasses([cls.class_id])).toHaveLength(1);
      expect(await problems.count(cls.class_id)).toBe(1);
      const activity = new ActivityRepository(db);
      const caller = { role: 'child' as const, childId: 'kid123', expertId: null };
      await activity.addRun({
        caller,
        classId: cls.class_id,
        problemId: p.problem_id,
        language: 'python',
        codeSha256: 'x',
        passed: 1,
        total: 1,
        status: 'passed',
        runtimeMs: 5,
      });
      const ev = await activity.addSuggestionEvent({
        caller,
        classId: cls.class_id,
        problemId: p.problem_id,
        language: 'python',
        codeSha256: 'x',
        cursorLine: 1,
        cursorColumn: 0,
        generator: 'offline',
        model: null,
        suggestion: 's',
        distractors: ['d'],
        explanation: 'e',
        latencyMs: 1,
      });
      expect(await activity.answer(ev, 'd', false, 0)).toBe(true);
      expect(await activity.answer(ev, 'd', false, 0)).toBe(false);
      expect((await activity.childProgress('kid123')).get(p.problem_id)).toMatchObject({ solved: true, runs: 1, hints: 1 });
      expect(await classes.demoClassMade()).toBe(false);
    });
  });
}
