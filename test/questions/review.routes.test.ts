import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFamily,
  loginAdmin,
  loginChild,
  loginExpert,
  startTestApp,
  type Agent,
  type TestApp,
  type TestFamily,
} from '../helpers/app.js';
import { addVideo, assignVideo, count } from './fixtures.js';

let t: TestApp;
let admin: Agent;
let mine: Agent; // expert A, assigned the videos
let other: Agent; // expert B, assigned nothing
let famA: TestFamily;
let famB: TestFamily;
let n = 0;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t.agent());
  famA = await createFamily(t);
  famB = await createFamily(t);
  mine = await loginExpert(t.agent(), famA.expert.code);
  other = await loginExpert(t.agent(), famB.expert.code);
});
afterAll(async () => t.close());

const q = (type: string, rank: number, text = `${type} question ${rank}?`) => ({ question_type: type, question: text, answer: `${type} answer`, rank });

/** A video assigned to expert A with three generated segments, submitted through the admin route. */
async function seededVideo(): Promise<string> {
  const id = `rvid${n++}`;
  await addVideo(t.db, t.dataDir, { id, seconds: 30 });
  await assignVideo(t.db, id, famA.expert.expert_id);
  const res = await admin.post('/api/submit-questions').send({
    video_id: id,
    questions: [0, 10, 20].map((s) => ({
      segment_range_start: s,
      segment_range_end: s + 10,
      provider: 'openai',
      questions: [q('character', 2), q('feeling', 1), q('action', 3)],
    })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return id;
}

async function reviewOf(agent: Agent, id: string) {
  const res = await agent.get(`/api/expert-questions/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.segments as { segment_range_start: number; finalized: boolean; questions: { id: number; question_type: string; question: string; expert_ranking: number | null; trashed: boolean; variants: unknown[] }[] }[];
}

describe('POST /api/submit-questions', () => {
  it('stores segments, seeds the review set and writes the JSON export', async () => {
    const id = await seededVideo();
    expect(await count(t.db, "SELECT COUNT(*) AS n FROM question_segments WHERE video_id = ? AND status = 'ok' AND provider = 'openai'", [id])).toBe(3);
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM review_questions WHERE video_id = ?', [id])).toBe(9);
    const again = await admin.post('/api/submit-questions').send({
      video_id: id,
      questions: [{ segment_range_start: 30, segment_range_end: 40, question_type: 'setting', question: 'Where are they?', answer: 'at the pond' }],
    });
    expect(again.body).toMatchObject({ success: true, segments: 1, questions: 1, file_url: `/api/questions-export/${id}` });
    expect(again.body.file_path).toBe(`${t.dataDir}/videos/${id}/questions.json`);
    const exported = JSON.parse(fs.readFileSync(again.body.file_path, 'utf8'));
    expect(exported.generated).toHaveLength(4);
    expect(exported.generated[3]).toMatchObject({ provider: 'submitted', questions: [{ question_type: 'setting', llm_ranking: 1 }] });
    const file = await admin.get(again.body.file_url);
    expect(file.status).toBe(200);
    expect(file.body.video_id).toBe(id);
  });

  it('accepts segment_result events as the WebSocket sent them', async () => {
    const id = `rvid${n++}`;
    await addVideo(t.db, t.dataDir, { id, seconds: 20 });
    const result = { segment_range_start: 0, segment_range_end: 10, provider: 'gemini', model: 'g', questions: [{ question_type: 'outcome', question: 'What happened?', answer: 'it rained', llm_ranking: 1 }] };
    const res = await admin.post('/api/submit-questions').send({
      video_id: id,
      questions: [{ type: 'segment_result', ok: true, result }, { type: 'segment_result', ok: false, error: { code: 'refused' } }],
    });
    expect(res.body).toMatchObject({ success: true, segments: 1, questions: 1 });
    expect(await t.db.first('SELECT provider, model FROM question_segments WHERE video_id = ?', [id])).toEqual({ provider: 'gemini', model: 'g' });
  });

  it("accepts the original service's {start, end, result} items and stores what the contract's form stores", async () => {
    const [orig, flat] = [`rvid${n++}`, `rvid${n++}`];
    for (const id of [orig, flat]) await addVideo(t.db, t.dataDir, { id, seconds: 40 });
    const seg0 = { questions: [q('character', 2, 'Who is the pig?'), q('feeling', 1, 'How does Penny feel?')] };
    const original = await admin.post('/api/submit-questions').send({
      video_id: orig,
      questions: [
        { start: 0, end: 10, result: seg0 },
        // the JSON text of the generation, questions keyed by type
        { start: 10, end: 20, result: JSON.stringify({ questions: { action: { question: 'What does Penny do?', answer: 'she plays', rank: 1 }, setting: { question: 'Where is Penny?', answer: 'on the farm', rank: 2 } } }) },
        // the type keys at the top of the result, in a fenced reply
        { start: 20, end: 30, result: '```json\n{"outcome": {"question": "What happened to the ball?", "answer": "it flew away"}}\n```' },
        // a segment whose generation failed is skipped
        { start: 30, end: 40, result: { success: false, error: 'model refused' } },
      ],
    });
    expect(original.status, JSON.stringify(original.body)).toBe(200);
    expect(original.body).toMatchObject({ success: true, segments: 3, questions: 5 });
    const contract = await admin.post('/api/submit-questions').send({
      video_id: flat,
      questions: [
        { segment_range_start: 0, segment_range_end: 10, ...seg0 },
        { segment_range_start: 10, segment_range_end: 20, questions: [
          { question_type: 'action', question: 'What does Penny do?', answer: 'she plays', llm_ranking: 1 },
          { question_type: 'setting', question: 'Where is Penny?', answer: 'on the farm', llm_ranking: 2 },
        ] },
        { segment_range_start: 20, segment_range_end: 30, question_type: 'outcome', question: 'What happened to the ball?', answer: 'it flew away' },
      ],
    });
    expect(contract.status, JSON.stringify(contract.body)).toBe(200);
    expect(original.body.segments).toBe(contract.body.segments);
    expect(original.body.questions).toBe(contract.body.questions);
    const stored = (id: string) => t.db.all(
      `SELECT start_seconds AS segment_range_start, end_seconds AS segment_range_end, question_type, question, answer, llm_ranking FROM review_questions
        WHERE video_id = ? ORDER BY start_seconds, llm_ranking`, [id]);
    expect(await stored(orig)).toEqual(await stored(flat));
    expect(await stored(orig)).toEqual([
      { segment_range_start: 0, segment_range_end: 10, question_type: 'feeling', question: 'How does Penny feel?', answer: 'feeling answer', llm_ranking: 1 },
      { segment_range_start: 0, segment_range_end: 10, question_type: 'character', question: 'Who is the pig?', answer: 'character answer', llm_ranking: 2 },
      { segment_range_start: 10, segment_range_end: 20, question_type: 'action', question: 'What does Penny do?', answer: 'she plays', llm_ranking: 1 },
      { segment_range_start: 10, segment_range_end: 20, question_type: 'setting', question: 'Where is Penny?', answer: 'on the farm', llm_ranking: 2 },
      { segment_range_start: 20, segment_range_end: 30, question_type: 'outcome', question: 'What happened to the ball?', answer: 'it flew away', llm_ranking: 1 },
    ]);
    expect(await count(t.db, "SELECT COUNT(*) AS n FROM question_segments WHERE video_id = ? AND status = 'ok'", [orig])).toBe(3);
  });

  it('refuses an original-format result that is not JSON or names no valid question, storing nothing', async () => {
    const id = `rvid${n++}`;
    await addVideo(t.db, t.dataDir, { id, seconds: 20 });
    for (const result of ['{not json', 42, { questions: [{ type: 'who', question: 'Who?', answer: 'me' }] }, {}]) {
      const res = await admin.post('/api/submit-questions').send({ video_id: id, questions: [{ start: 0, end: 10, result }] });
      expect(res.status, JSON.stringify(result)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'invalid_questions' });
    }
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM question_segments WHERE video_id = ?', [id])).toBe(0);
  });

  it('refuses bad payloads with 400 and non-admins with 403', async () => {
    const id = await seededVideo();
    const bad = [
      {},
      { video_id: id },
      { video_id: id, questions: [] },
      { video_id: '../x', questions: [{}] },
      { video_id: id, questions: [{ segment_range_start: 0, segment_range_end: 10, question_type: 'who', question: 'Who?', answer: 'me' }] },
      { video_id: id, questions: [{ segment_range_start: 10, segment_range_end: 5, question_type: 'action', question: 'What?', answer: 'run' }] },
      { video_id: id, questions: [{ segment_range_start: 0, segment_range_end: 10, question_type: 'action', question: '', answer: 'run' }] },
      {
        video_id: id,
        questions: [
          { segment_range_start: 30, segment_range_end: 40, question_type: 'action', question: 'What?', answer: 'run' },
          { segment_range_start: 35, segment_range_end: 45, question_type: 'action', question: 'What?', answer: 'run' },
        ],
      },
    ];
    for (const body of bad) {
      const res = await admin.post('/api/submit-questions').send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await mine.post('/api/submit-questions').send({ video_id: id, questions: [{}] })).status).toBe(403);
    expect((await admin.post('/api/submit-questions').send({ video_id: 'nosuch', questions: [{}] })).status).toBe(404);
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM question_segments WHERE video_id = ?', [id])).toBe(3);
  });
});

describe('GET /api/expert-questions/{video_id}', () => {
  it('gives the assigned expert every segment with AI result and review set', async () => {
    const id = await seededVideo();
    const res = await mine.get(`/api/expert-questions/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.segments).toHaveLength(3);
    expect(res.body.segments[0]).toMatchObject({
      segment_range_start: 0, segment_range_end: 10, finalized: false,
      generated: { status: 'ok', provider: 'openai', question_count: 3 },
      chosen: { bunny: null, pig: null, alligator: null },
    });
    expect(res.body.segments[0].questions.map((x: { question_type: string; llm_ranking: number }) => [x.question_type, x.llm_ranking])).toEqual([
      ['feeling', 1], ['character', 2], ['action', 3],
    ]);
  });

  it('404s a missing video or one without questions, 403s another expert, 401s anonymous', async () => {
    const id = await seededVideo();
    expect((await other.get(`/api/expert-questions/${id}`)).status).toBe(403);
    expect((await t.agent().get(`/api/expert-questions/${id}`)).status).toBe(401);
    expect((await mine.get('/api/expert-questions/nosuchvideo')).status).toBe(404);
    const empty = `rvid${n++}`;
    await addVideo(t.db, t.dataDir, { id: empty, seconds: 10 });
    const res = await admin.get(`/api/expert-questions/${empty}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: 'questions_not_found' });
  });
});

describe('POST /api/expert-questions', () => {
  it("saves ranks, edits, trash and the expert's own question; a regeneration then leaves the segment alone", async () => {
    const id = await seededVideo();
    const [seg] = await reviewOf(mine, id);
    const [feeling, character, action] = seg!.questions;
    const res = await mine.post('/api/expert-questions').send({
      video_id: id,
      segments: [{
        segment_range_start: 0, segment_range_end: 10,
        questions: [
          { id: character!.id, question_type: 'character', question: 'Who is in the barn?', answer: 'Penny', expert_ranking: 1 },
          { id: feeling!.id, question_type: 'feeling', question: feeling!.question, answer: 'feeling answer', trashed: true },
          { question_type: 'prediction', question: 'What will Penny do next?', answer: 'look for the ball', expert_ranking: 2 },
        ],
      }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = (await t.db.all<{ id: number; question: string; expert_ranking: number | null; trashed: number; origin: string; edited: number }>(
      'SELECT id, question, expert_ranking, trashed, origin, edited FROM review_questions WHERE video_id = ? AND start_seconds = 0 ORDER BY position', [id]));
    expect(rows).toEqual([
      { id: character!.id, question: 'Who is in the barn?', expert_ranking: 1, trashed: 0, origin: 'generated', edited: 1 },
      { id: feeling!.id, question: feeling!.question, expert_ranking: null, trashed: 1, origin: 'generated', edited: 1 },
      { id: expect.any(Number), question: 'What will Penny do next?', expert_ranking: 2, trashed: 0, origin: 'expert', edited: 1 },
    ]);
    expect(rows.some((r) => r.id === action!.id)).toBe(false);
    // a new AI result for this segment does not overwrite the expert's work
    await admin.post('/api/submit-questions').send({ video_id: id, questions: [{ segment_range_start: 0, segment_range_end: 10, question_type: 'action', question: 'New?', answer: 'new' }] });
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM review_questions WHERE video_id = ? AND start_seconds = 0', [id])).toBe(3);
    expect(await count(t.db, "SELECT COUNT(*) AS n FROM review_questions WHERE video_id = ? AND start_seconds = 10 AND origin = 'generated'", [id])).toBe(3);
    // a new segmentation replaces untouched AI segments it overlaps, never the expert's
    const resplit = await admin.post('/api/submit-questions').send({
      video_id: id,
      questions: [5, 15].map((s) => ({ segment_range_start: s, segment_range_end: s + 10, question_type: 'action', question: 'What now?', answer: 'jump' })),
    });
    expect(resplit.status, JSON.stringify(resplit.body)).toBe(400);
    expect(resplit.body.error).toBe('segment_overlap');
    const tail = await admin.post('/api/submit-questions').send({
      video_id: id,
      questions: [{ segment_range_start: 15, segment_range_end: 30, question_type: 'action', question: 'What now?', answer: 'jump' }],
    });
    expect(tail.status, JSON.stringify(tail.body)).toBe(200);
    expect(await t.db.all('SELECT start_seconds AS s, end_seconds AS e FROM question_segments WHERE video_id = ? ORDER BY s', [id])).toEqual([
      { s: 0, e: 10 }, { s: 15, e: 30 },
    ]);
  });

  it('400s invalid payloads and leaves the data alone; 403s another expert', async () => {
    const id = await seededVideo();
    const [seg] = await reviewOf(mine, id);
    const otherVideo = await seededVideo();
    const [foreign] = await reviewOf(mine, otherVideo);
    const good = { segment_range_start: 0, segment_range_end: 10, questions: [{ question_type: 'action', question: 'What?', answer: 'run' }] };
    const bad = [
      { segments: [good] },
      { video_id: id },
      { video_id: id, segments: [] },
      { video_id: id, segments: [{ ...good, segment_range_end: 0 }] },
      { video_id: id, segments: [{ ...good, questions: [{ question_type: 'weather', question: 'What?', answer: 'run' }] }] },
      { video_id: id, segments: [{ ...good, questions: [{ question_type: 'action', question: 'What?', answer: '' }] }] },
      { video_id: id, segments: [{ ...good, questions: [{ id: foreign!.questions[0]!.id, question_type: 'action', question: 'What?', answer: 'run' }] }] },
      { video_id: id, segments: [{ ...good, segment_range_start: 5, segment_range_end: 15 }] },
      { video_id: id, segments: [{ ...good, questions: [{ id: seg!.questions[0]!.id, question_type: 'action', question: 'A?', answer: 'a' }, { id: seg!.questions[0]!.id, question_type: 'action', question: 'B?', answer: 'b' }] }] },
    ];
    for (const body of bad) {
      const res = await mine.post('/api/expert-questions').send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: expect.any(String), message: expect.any(String) });
    }
    expect((await other.post('/api/expert-questions').send({ video_id: id, segments: [good] })).status).toBe(403);
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM review_questions WHERE video_id = ? AND edited = 1', [id])).toBe(0);
  });
});

describe('POST /api/save-final-questions and GET final questions', () => {
  it('finalizes segments; children get the top-ranked, non-trashed question per finalized segment', async () => {
    const id = await seededVideo();
    const child = await loginChild(t.agent(), famA);
    const none = await child.get(`/api/final-questions/${id}`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ success: false, segments: [], error: expect.any(String) });

    const [s0, s1] = await reviewOf(mine, id);
    const res = await mine.post('/api/save-final-questions').send({
      video_id: id,
      segments: [
        { segment_range_start: 0, segment_range_end: 10 },
        {
          segment_range_start: 10, segment_range_end: 20,
          questions: s1!.questions.map((x) => ({ ...x, answer: `${x.question_type} answer`, trashed: x.question_type === 'feeling', expert_ranking: x.question_type === 'action' ? 1 : null })),
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.file_path).toBeTruthy();
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM review_segments WHERE video_id = ? AND finalized = 1', [id])).toBe(2);

    const final = await child.get(`/api/final-questions/${id}`);
    expect(final.body).toEqual({
      success: true, video_id: id, companion: null,
      segments: [
        { segment_range_start: 0, segment_range_end: 10, question: 'feeling question 1?', answer: 'feeling answer', llm_ranking: 1, expert_ranking: 0, question_type: 'feeling', question_id: s0!.questions[0]!.id, companion: null },
        { segment_range_start: 10, segment_range_end: 20, question: 'action question 3?', answer: 'action answer', llm_ranking: 3, expert_ranking: 1, question_type: 'action', question_id: expect.any(Number), companion: null },
      ],
    });
    const forExpert = await mine.get(`/api/expert/video/${id}/final-questions`);
    expect(forExpert.body.segments).toEqual(final.body.segments);
    expect((await child.get(`/api/final-questions/${id}?companion=dragon`)).status).toBe(400);
    expect((await (await loginChild(t.agent(), famB)).get(`/api/final-questions/${id}`)).status).toBe(403);
    expect((await other.get(`/api/expert/video/${id}/final-questions`)).status).toBe(403);
    expect((await t.agent().get(`/api/final-questions/${id}`)).status).toBe(401);
  });

  it('400s invalid payloads and a segment with nothing left to serve; un-finalizes on request', async () => {
    const id = await seededVideo();
    const [s0] = await reviewOf(mine, id);
    for (const body of [{ video_id: id }, { video_id: id, segments: [{ segment_range_start: 0 }] }, { video_id: id, segments: [{ segment_range_start: 0, segment_range_end: 10, finalized: 'yes' }] }]) {
      expect((await mine.post('/api/save-final-questions').send(body)).status, JSON.stringify(body)).toBe(400);
    }
    const allTrashed = await mine.post('/api/save-final-questions').send({
      video_id: id, segments: [{ segment_range_start: 0, segment_range_end: 10, questions: s0!.questions.map((x) => ({ ...x, answer: 'a', trashed: true })) }],
    });
    expect(allTrashed.status).toBe(400);
    expect(allTrashed.body.error).toBe('segment_empty');
    expect(await count(t.db, "SELECT COUNT(*) AS n FROM review_questions WHERE video_id = ? AND trashed = 1", [id])).toBe(0); // rolled back
    expect((await mine.post('/api/save-final-questions').send({ video_id: id, segments: [{ segment_range_start: 50, segment_range_end: 60 }] })).status).toBe(404);
    await mine.post('/api/save-final-questions').send({ video_id: id, segments: [{ segment_range_start: 0, segment_range_end: 10 }] });
    await mine.post('/api/save-final-questions').send({ video_id: id, segments: [{ segment_range_start: 0, segment_range_end: 10, finalized: false }] });
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM review_segments WHERE video_id = ? AND finalized = 1', [id])).toBe(0);
    expect((await other.post('/api/save-final-questions').send({ video_id: id, segments: [{ segment_range_start: 0, segment_range_end: 10 }] })).status).toBe(403);
  });
});

describe('POST /api/expert-annotations', () => {
  it('writes, updates and deletes the caller\'s notes', async () => {
    const id = await seededVideo();
    const [s0] = await reviewOf(mine, id);
    const res = await mine.post('/api/expert-annotations').send({
      video_id: id,
      annotations: [{ note: 'Good video for 5-year-olds' }, { segment_range_start: 0, segment_range_end: 10, question_id: s0!.questions[0]!.id, note: 'too easy' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.annotations).toHaveLength(2);
    await mine.post('/api/expert-annotations').send({ video_id: id, annotations: [{ note: '' }, { segment_range_start: 0, segment_range_end: 10, question_id: s0!.questions[0]!.id, note: 'fine now' }] });
    expect(await t.db.all('SELECT author, note FROM expert_annotations WHERE video_id = ?', [id])).toEqual([{ author: famA.expert.expert_id, note: 'fine now' }]);
    expect((await mine.get(`/api/expert-questions/${id}`)).body.annotations).toEqual([expect.objectContaining({ note: 'fine now', question_id: s0!.questions[0]!.id })]);
  });

  it('400s bad payloads and 403s another expert', async () => {
    const id = await seededVideo();
    for (const body of [{ video_id: id }, { video_id: id, annotations: [] }, { video_id: id, annotations: [{ segment_range_start: 0, note: 'x' }] }, { video_id: id, annotations: [{ question_id: 999999, note: 'x' }] }]) {
      expect((await mine.post('/api/expert-annotations').send(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await other.post('/api/expert-annotations').send({ video_id: id, annotations: [{ note: 'x' }] })).status).toBe(403);
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM expert_annotations WHERE video_id = ?', [id])).toBe(0);
  });
});

describe('POST /api/expert/video/{video_id}/update-questions', () => {
  it('patches questions by id', async () => {
    const id = await seededVideo();
    const [s0] = await reviewOf(mine, id);
    const target = s0!.questions[2]!;
    const res = await mine.post(`/api/expert/video/${id}/update-questions`).send({ questions: [{ id: target.id, question: 'What does Penny kick?', expert_ranking: 1 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.questions[0]).toMatchObject({ id: target.id, question: 'What does Penny kick?', expert_ranking: 1, answer: 'action answer' });
    expect(await t.db.first('SELECT question, expert_ranking, edited, updated_by FROM review_questions WHERE id = ?', [target.id])).toEqual({
      question: 'What does Penny kick?', expert_ranking: 1, edited: 1, updated_by: famA.expert.expert_id,
    });
  });

  it('400s unknown ids and bad fields, 403s another expert', async () => {
    const id = await seededVideo();
    const [s0] = await reviewOf(mine, id);
    for (const body of [{}, { questions: [] }, { questions: [{ id: 99999, question: 'x?' }] }, { questions: [{ id: s0!.questions[0]!.id, question_type: 'why' }] }, { questions: [{ id: 'one' }] }]) {
      expect((await mine.post(`/api/expert/video/${id}/update-questions`).send(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await other.post(`/api/expert/video/${id}/update-questions`).send({ questions: [{ id: s0!.questions[0]!.id, trashed: true }] })).status).toBe(403);
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM review_questions WHERE video_id = ? AND edited = 1', [id])).toBe(0);
  });
});
