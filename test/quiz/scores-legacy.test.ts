import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChild, createFamily, loginChild, loginExpert, startTestApp, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { addVideo, countRows } from './quiz-fixtures.js';

/**
 * POST /api/save-quiz-score in the original service's nested shape ({child_id, video_id,
 * score_data: {...}}) and in the contract's flat shape store and answer the same thing.
 */
let t: TestApp;
let family: TestFamily;
let twinId: string;
let videoId: string;
let expert: Agent;

beforeAll(async () => {
  t = await startTestApp();
  family = await createFamily(t);
  twinId = (await createChild(t, family.expert.expert_id, { first_name: 'Noa' })).child_id;
  videoId = await addVideo(t, family.expert.expert_id);
  expert = await loginExpert(t.agent(), family.expert.code);
});
afterAll(() => t.close());

const originalDetails = [
  { question: 'What color was the barn?', expectedAnswer: 'red', userAnswer: 'red', status: 'correct', similarity: 1, question_type: 'setting', timestamp: 20 },
  { question: 'Who was lost?', expectedAnswer: 'the piglet', userAnswer: 'the piglet', status: 'correct', similarity: 0.98, question_type: 'character', timestamp: 40 },
  { question: 'How did Daisy feel?', expectedAnswer: 'happy', userAnswer: 'sad', status: 'incorrect', similarity: 0.1, question_type: 'feeling', timestamp: 60 },
];
const contractDetails = originalDetails.map(({ expectedAnswer, userAnswer, status, ...d }) => ({ ...d, expected: expectedAnswer, user: userAnswer, status: status === 'incorrect' ? 'wrong' : status }));

const nested = (childId: string, scoreData: Record<string, unknown>) => ({ child_id: childId, video_id: videoId, score_data: scoreData });
const originalScore = { total: 3, correct: 2, wrong: 1, percentage: 67, total_retries: 2, avg_retries_per_question: 0.67, watch_minutes: 1.5, manual_pauses: 1, details: originalDetails };

const attemptRow = async (id: number) => await t.db.first<Record<string, unknown>>(
  'SELECT percentage, total_retries, watch_minutes, question_count, correct_count, almost_count, wrong_count, interaction_mode FROM quiz_attempts WHERE id = ?', [id]);
const answerRows = async (id: number) => await t.db.all<Record<string, unknown>>(
  'SELECT position, question, question_type, expected, user_answer, status, similarity, retries, extra_json FROM quiz_answers WHERE attempt_id = ? ORDER BY position', [id]);
const withoutIds = (a: Record<string, unknown>) => {
  const { attempt_id: _a, child_id: _c, created_at: _t, ...rest } = a;
  return rest;
};

describe('save-quiz-score: the original nested score_data and the contract flat body', () => {
  it('store the same attempt and answers, and read back the same through scores and reports', async () => {
    const tablet = await loginChild(t.agent(), family);
    const flat = await tablet.post('/api/save-quiz-score').send({
      child_id: family.child.child_id, video_id: videoId, percentage: 67, total_retries: 2, watch_minutes: 1.5, details: contractDetails,
    });
    const old = await expert.post('/api/save-quiz-score').send(nested(twinId, originalScore));
    expect(flat.status, JSON.stringify(flat.body)).toBe(200);
    expect(old.status, JSON.stringify(old.body)).toBe(200);
    expect(old.body).toMatchObject({ success: true, checkpoint: false, percentage: 67, question_count: 3 });
    expect(withoutIds(old.body)).toEqual(withoutIds(flat.body));

    const row = await attemptRow(old.body.attempt_id);
    expect(row).toEqual({ percentage: 67, total_retries: 2, watch_minutes: 1.5, question_count: 3, correct_count: 2, almost_count: 0, wrong_count: 1, interaction_mode: 'flexible' });
    expect(row).toEqual(await attemptRow(flat.body.attempt_id));
    const answers = await answerRows(old.body.attempt_id);
    expect(answers.map((a) => [a.expected, a.user_answer, a.status, a.extra_json])).toEqual([
      ['red', 'red', 'correct', '{"timestamp":20}'],
      ['the piglet', 'the piglet', 'correct', '{"timestamp":40}'],
      ['happy', 'sad', 'wrong', '{"timestamp":60}'],
    ]);
    expect(answers).toEqual(await answerRows(flat.body.attempt_id));

    const scores = async (childId: string) => (await expert.get(`/api/get-quiz-scores/${childId}`)).body;
    const [a, b] = [await scores(twinId), await scores(family.child.child_id)];
    expect(a.count).toBe(1);
    expect(a.attempts[0]).toMatchObject({ percentage: 67, correct: 2, wrong: 1, question_count: 3, total_retries: 2 });
    expect(a.attempts[0].details[2]).toMatchObject({ expected: 'happy', user: 'sad', status: 'wrong', timestamp: 60 });
    expect(withoutIds(a.attempts[0])).toEqual(withoutIds(b.attempts[0]));

    const report = async (childId: string) => (await expert.get(`/api/learners/children/${childId}/report`)).body;
    const [ra, rb] = [await report(twinId), await report(family.child.child_id)];
    expect(ra.overall).toMatchObject({ score: 67, attempts: 1, questions_answered: 3, correct: 2, wrong: 1, total_retries: 2, watch_minutes: 1.5 });
    const noTimes = ({ first_activity: _f, last_activity: _l, ...o }: Record<string, unknown>) => o;
    expect(noTimes(ra.overall)).toEqual(noTimes(rb.overall));
    expect(ra.by_question_type).toEqual(rb.by_question_type);
  });

  it('counts from total/correct/wrong when details are absent, computing the percentage when it is missing', async () => {
    const res = await expert.post('/api/save-quiz-score').send(nested(twinId, { total: 4, correct: 3, wrong: 1, total_retries: 0, details: [] }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ percentage: 75, question_count: 4 });
    expect(await attemptRow(res.body.attempt_id)).toMatchObject({ percentage: 75, question_count: 4, correct_count: 3, wrong_count: 1, almost_count: 0 });
    expect(await answerRows(res.body.attempt_id)).toEqual([]);
    // the same counts sent flat
    const flat = await expert.post('/api/save-quiz-score').send({ child_id: twinId, video_id: videoId, total: 4, correct: 3, wrong: 1 });
    expect(await attemptRow(flat.body.attempt_id)).toEqual(await attemptRow(res.body.attempt_id));
  });

  it('lets the flat contract fields win over score_data', async () => {
    const res = await expert.post('/api/save-quiz-score').send({
      ...nested(twinId, originalScore), percentage: 90, total_retries: 0, details: [contractDetails[0]],
    });
    expect(res.status).toBe(200);
    expect(await attemptRow(res.body.attempt_id)).toMatchObject({ percentage: 90, total_retries: 0, watch_minutes: 1.5, question_count: 1, correct_count: 1, wrong_count: 0 });
  });

  it('answers 422 and stores nothing when score_data is not an object', async () => {
    for (const scoreData of ['67%', 67, [originalScore], null, true]) {
      const before = await countRows(t, 'quiz_attempts');
      const res = await expert.post('/api/save-quiz-score').send({ child_id: twinId, video_id: videoId, score_data: scoreData });
      expect(res.status, JSON.stringify(scoreData)).toBe(422);
      expect(res.body).toMatchObject({ success: false, error: 'invalid_score_data', detail: [{ loc: ['body', 'score_data'], msg: expect.any(String), type: expect.any(String) }] });
      expect(await countRows(t, 'quiz_attempts')).toBe(before);
    }
  });

  it('refuses counts that do not add up, and bad nested fields name the field', async () => {
    const before = await countRows(t, 'quiz_attempts');
    const over = await expert.post('/api/save-quiz-score').send(nested(twinId, { total: 2, correct: 2, wrong: 1 }));
    expect(over.status).toBe(400);
    expect(over.body.message).toMatch(/more than total/);
    const bad = await expert.post('/api/save-quiz-score').send(nested(twinId, { percentage: 250 }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/percentage/);
    expect(await countRows(t, 'quiz_attempts')).toBe(before);
  });

  it('checks who is asking exactly as for the flat body', async () => {
    const other = await createFamily(t);
    const stranger = await loginExpert(t.agent(), other.expert.code);
    const before = await countRows(t, 'quiz_attempts');
    expect((await stranger.post('/api/save-quiz-score').send(nested(twinId, originalScore))).status).toBe(403);
    expect((await t.agent().post('/api/save-quiz-score').send(nested(twinId, originalScore))).status).toBe(401);
    expect(await countRows(t, 'quiz_attempts')).toBe(before);
  });
});
