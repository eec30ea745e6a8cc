import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChild, createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type TestApp, type TestFamily } from '../helpers/app.js';
import { addVideo, attemptBody, countRows } from './quiz-fixtures.js';

let t: TestApp;
let family: TestFamily;
let other: TestFamily;
let videoId: string;
let otherVideo: string;

beforeAll(async () => {
  t = await startTestApp();
  family = await createFamily(t, { interaction_mode: 'flexible' });
  other = await createFamily(t);
  videoId = await addVideo(t, family.expert.expert_id);
  otherVideo = await addVideo(t, other.expert.expert_id, 'Not Yours');
});
afterAll(() => t.close());

const attemptsOf = async (childId: string) => await t.db.all<Record<string, unknown>>('SELECT * FROM quiz_attempts WHERE child_id = ? ORDER BY id', [childId]);
const answersOf = async (attemptId: number) => await t.db.all<Record<string, unknown>>('SELECT * FROM quiz_answers WHERE attempt_id = ? ORDER BY position', [attemptId]);

describe('POST /api/save-quiz-score', () => {
  it('stores the attempt and every answer for a child session', async () => {
    const child = await loginChild(t.agent(), family);
    const before = await countRows(t, 'quiz_attempts');
    const res = await child.post('/api/save-quiz-score').send(attemptBody(family.child.child_id, videoId));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, checkpoint: false, percentage: 50, question_count: 3, attempt_id: expect.any(Number) });
    expect(await countRows(t, 'quiz_attempts')).toBe(before + 1);
    const row = await t.db.first<Record<string, unknown>>('SELECT * FROM quiz_attempts WHERE id = ?', [res.body.attempt_id]);
    expect(row).toMatchObject({
      child_id: family.child.child_id, video_id: videoId, video_title: 'The Red Barn', companion: 'pig', interaction_mode: 'strict',
      percentage: 50, total_retries: 1, watch_minutes: 1.5, question_count: 3, correct_count: 1, almost_count: 1, wrong_count: 1,
    });
    const answers = await answersOf(res.body.attempt_id);
    expect(answers.map((a) => [a.question_type, a.expected, a.user_answer, a.status, a.segment_range_start, a.retries])).toEqual([
      ['setting', 'red', 'read', 'correct', 0, 0],
      ['character', 'the piglet', 'an animal', 'almost', 20, 1],
      ['feeling', 'happy', 'sad', 'wrong', 40, 0],
    ]);
  });

  // 200: the most a save may hold (several rows per INSERT, over more than one statement); 25: the
  // most PostgreSQL saves in one statement with the attempt; 26: the first that takes a transaction
  it.each([200, 25, 26])('stores %i answers in their order', async (count) => {
    const child = await loginChild(t.agent(), family);
    const statuses = ['correct', 'almost', 'wrong'] as const;
    const details = Array.from({ length: count }, (_, i) => ({
      question: `Question ${i}?`,
      question_type: 'action',
      expected: `answer ${i}`,
      user: i % 7 === 0 ? '' : `said ${i}`,
      status: statuses[i % 3],
      similarity: i % 5 === 0 ? null : (i % 100) / 100,
      segment_range_start: i * 10,
      segment_range_end: i * 10 + 10,
      retries: i % 4,
      ...(i === 57 ? { mood: 'sleepy' } : {}),
    }));
    const res = await child.post('/api/save-quiz-score').send({ child_id: family.child.child_id, video_id: videoId, details });
    expect(res.status).toBe(200);
    expect(res.body.question_count).toBe(count);
    const answers = await answersOf(res.body.attempt_id);
    expect(answers).toHaveLength(count);
    expect(answers.map((a) => Number(a.position))).toEqual(details.map((_, i) => i));
    const stored = answers.map((a) => [a.question, a.expected, a.user_answer, a.status, a.similarity === null ? null : Number(a.similarity), Number(a.segment_range_start), Number(a.retries)]);
    expect(stored).toEqual(details.map((d) => [d.question, d.expected, d.user, d.status, d.similarity, d.segment_range_start, d.retries]));
    if (count > 57) expect(JSON.parse(String(answers[57]!.extra_json))).toEqual({ mood: 'sleepy' });
    expect(answers.filter((a) => a.extra_json !== null)).toHaveLength(count > 57 ? 1 : 0);
  });

  it('lets the expert owner and the admin save, and takes the child mode and the session companion as defaults', async () => {
    const expert = await loginExpert(t.agent(), family.expert.code);
    const e = await expert.post('/api/save-quiz-score').send({ child_id: family.child.child_id, video_id: videoId, percentage: 80 });
    expect(e.status).toBe(200);
    expect(await t.db.first('SELECT interaction_mode, percentage, companion, question_count FROM quiz_attempts WHERE id = ?', [e.body.attempt_id]))
      .toEqual({ interaction_mode: 'flexible', percentage: 80, companion: null, question_count: 0 });
    const admin = await loginAdmin(t.agent());
    const a = await admin.post('/api/save-quiz-score').send({ child_id: other.child.child_id, video_id: videoId, interaction_mode: 'passive' });
    expect(a.status).toBe(200);
    expect(a.body.percentage).toBeNull();
    expect(await t.db.first('SELECT percentage, interaction_mode FROM quiz_attempts WHERE id = ?', [a.body.attempt_id]))
      .toEqual({ percentage: null, interaction_mode: 'passive' });
  });

  it('accepts details leniently: answer as an alias, extras kept, missing status graded', async () => {
    const child = await loginChild(t.agent(), family);
    const res = await child.post('/api/save-quiz-score').send({
      child_id: family.child.child_id,
      video_id: videoId,
      details: [
        { question: 'How many eggs?', expected: 'three', answer: '3', reason: 'said 3', skipped: false, attempts: [{ user: 'x' }] },
        { expected: 'a map', user: 'a telescope', segment_range_start: 12.6 },
        {},
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.percentage).toBe(50);
    const answers = await answersOf(res.body.attempt_id);
    expect(answers[0]).toMatchObject({ user_answer: '3', status: 'correct', similarity: 1, extra_json: '{"reason":"said 3","skipped":false}' });
    expect(answers[1]).toMatchObject({ user_answer: 'a telescope', status: 'wrong', segment_range_start: 13 });
    expect(answers[2]).toMatchObject({ question: '', expected: '', user_answer: '', status: null });
  });

  it.each([
    ['anonymous', null, 401, 'not_logged_in'],
    ["another family's tablet", 'otherChild', 403, 'child_not_yours'],
    ["another expert's account", 'otherExpert', 403, 'child_not_yours'],
  ])('refuses %s', async (_name, who, status, code) => {
    const agent = who === 'otherChild' ? await loginChild(t.agent(), other) : who === 'otherExpert' ? await loginExpert(t.agent(), other.expert.code) : t.agent();
    const before = await countRows(t, 'quiz_attempts');
    const res = await agent.post('/api/save-quiz-score').send(attemptBody(family.child.child_id, videoId));
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, error: code });
    expect(await countRows(t, 'quiz_attempts')).toBe(before);
  });

  it('404 for an unknown child or video, 403 for a video outside the library', async () => {
    const child = await loginChild(t.agent(), family);
    expect((await child.post('/api/save-quiz-score').send(attemptBody('999999', videoId))).body.error).toBe('child_not_found');
    const unknown = await child.post('/api/save-quiz-score').send(attemptBody(family.child.child_id, 'nosuchvideo'));
    expect([unknown.status, unknown.body.error]).toEqual([404, 'video_not_found']);
    const foreign = await child.post('/api/save-quiz-score').send(attemptBody(family.child.child_id, otherVideo));
    expect([foreign.status, foreign.body.error]).toEqual([403, 'video_not_yours']);
  });

  const long = 'x'.repeat(501);
  it.each([
    ['child_id', { child_id: '12ab' }],
    ['child_id', { child_id: undefined }],
    ['video_id', { video_id: '../etc' }],
    ['video_id', { video_id: undefined }],
    ['percentage', { percentage: 101 }],
    ['percentage', { percentage: 'high' }],
    ['total_retries', { total_retries: -1 }],
    ['total_retries', { total_retries: 1.5 }],
    ['watch_minutes', { watch_minutes: 'ten' }],
    ['interaction_mode', { interaction_mode: 'lazy' }],
    ['companion', { companion: 'cat' }],
    ['details', { details: 'none' }],
    ['details', { details: Array.from({ length: 201 }, () => ({})) }],
    ['details.0.user', { details: [{ user: long }] }],
    ['details.0.status', { details: [{ status: 'great' }] }],
    ['details.0.similarity', { details: [{ similarity: 2 }] }],
    ['details.0.segment_range_start', { details: [{ segment_range_start: -5 }] }],
    ['details.0', { details: ['red'] }],
  ])('400 for a bad %s', async (field, patch) => {
    const child = await loginChild(t.agent(), family);
    const before = await countRows(t, 'quiz_attempts');
    const res = await child.post('/api/save-quiz-score').send({ ...attemptBody(family.child.child_id, videoId), ...patch });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'validation_error' });
    expect(res.body.message).toContain(field);
    expect(await countRows(t, 'quiz_attempts')).toBe(before);
  });
});

describe('checkpoints and resuming', () => {
  it('saves a checkpoint instead of an attempt, resumes from it, and drops it when the attempt is saved', async () => {
    const kid = await createChild(t, family.expert.expert_id, { first_name: 'Leo', parent_id: family.parentId });
    const child = await loginChild(t.agent(), family, kid.child_id);
    const base = `/api/quiz/checkpoints/${kid.child_id}/${videoId}`;
    expect((await child.get(base)).body).toEqual({ success: true, checkpoint: null });

    const put = await child.put(base).send({ position_seconds: 25.5, furthest_seconds: 30, duration_seconds: 60, watch_minutes: 0.5,
      interaction_mode: 'strict', companion: 'bunny', details: [attemptBody(kid.child_id, videoId).details[0]] });
    expect(put.status).toBe(200);
    expect(put.body.checkpoint).toMatchObject({ position_seconds: 25.5, furthest_seconds: 30, answered_segments: [0], companion: 'bunny' });
    // the page-leave beacon posts the newer state
    const beacon = await child.post(base).send({ position_seconds: 41, watch_minutes: 0.8, details: attemptBody(kid.child_id, videoId).details.slice(0, 2) });
    expect(beacon.status).toBe(200);
    expect(await t.db.first('SELECT position_seconds, furthest_seconds, watch_minutes FROM quiz_checkpoints WHERE child_id = ?', [kid.child_id]))
      .toEqual({ position_seconds: 41, furthest_seconds: 41, watch_minutes: 0.8 });

    const progress = await child.get(`/api/learners/children/${kid.child_id}/progress/${videoId}`);
    expect(progress.body).toMatchObject({ success: true, checkpoint: { position_seconds: 41, answered_segments: [0, 20] }, last_completed: null });
    const list = await child.get(`/api/quiz/checkpoints/${kid.child_id}`);
    expect(list.body).toMatchObject({ success: true, count: 1, checkpoints: [{ video_id: videoId, position_seconds: 41 }] });

    const via = await child.post('/api/save-quiz-score').send({ child_id: kid.child_id, video_id: videoId, checkpoint: true, position_seconds: 50 });
    expect(via.body).toMatchObject({ success: true, checkpoint: true, attempt_id: null });
    expect(await attemptsOf(kid.child_id)).toHaveLength(0);

    const done = await child.post('/api/save-quiz-score').send(attemptBody(kid.child_id, videoId));
    expect(done.status).toBe(200);
    expect(await countRowsFor(kid.child_id)).toBe(0);
    const after = await child.get(`/api/learners/children/${kid.child_id}/progress/${videoId}`);
    expect(after.body).toMatchObject({ checkpoint: null, last_completed: { attempt_id: done.body.attempt_id, percentage: 50 } });
  });

  it('deletes a checkpoint, and refuses other families and bad input', async () => {
    const child = await loginChild(t.agent(), family);
    const base = `/api/quiz/checkpoints/${family.child.child_id}/${videoId}`;
    await child.put(base).send({ position_seconds: 5 });
    const del = await child.delete(base);
    expect(del.body).toEqual({ success: true, deleted: true });
    expect(await countRowsFor(family.child.child_id)).toBe(0);
    expect((await child.delete(base)).body).toEqual({ success: true, deleted: false });

    const stranger = await loginChild(t.agent(), other);
    expect((await stranger.put(base).send({ position_seconds: 5 })).status).toBe(403);
    expect((await stranger.get(base)).status).toBe(403);
    expect((await t.agent().get(base)).status).toBe(401);
    expect((await child.put(base).send({ position_seconds: -1 })).status).toBe(400);
    expect((await child.put(`/api/quiz/checkpoints/${family.child.child_id}/${otherVideo}`).send({})).status).toBe(403);
    expect(await countRowsFor(family.child.child_id)).toBe(0);
  });
});

const countRowsFor = async (childId: string) => ((await t.db.first<{ n: number }>('SELECT COUNT(*) AS n FROM quiz_checkpoints WHERE child_id = ?', [childId])) as { n: number }).n;

describe('GET /api/get-quiz-scores/{child_id}', () => {
  it("returns the child's attempts with their details, newest first", async () => {
    const kid = await createChild(t, family.expert.expert_id, { first_name: 'Ava', parent_id: family.parentId });
    const child = await loginChild(t.agent(), family, kid.child_id);
    const first = await child.post('/api/save-quiz-score').send(attemptBody(kid.child_id, videoId));
    const second = await child.post('/api/save-quiz-score').send({ child_id: kid.child_id, video_id: videoId, percentage: 100 });
    const res = await child.get(`/api/get-quiz-scores/${kid.child_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, child_id: kid.child_id, count: 2 });
    expect(res.body.attempts.map((a: { attempt_id: number }) => a.attempt_id)).toEqual([second.body.attempt_id, first.body.attempt_id]);
    expect(res.body.attempts[1]).toMatchObject({
      video_id: videoId, video_title: 'The Red Barn', companion: 'pig', interaction_mode: 'strict', percentage: 50,
      correct: 1, almost: 1, wrong: 1, question_count: 3,
    });
    expect(res.body.attempts[1].details[1]).toEqual({
      question: 'Who was lost?', question_type: 'character', expected: 'the piglet', user: 'an animal', status: 'almost',
      similarity: 0.5, segment_range_start: 20, segment_range_end: 40, retries: 1,
    });
    const limited = await child.get(`/api/get-quiz-scores/${kid.child_id}?limit=1&video_id=${videoId}`);
    expect(limited.body.count).toBe(1);
  });

  it('refuses anonymous, other families and bad ids', async () => {
    expect((await t.agent().get(`/api/get-quiz-scores/${family.child.child_id}`)).status).toBe(401);
    const stranger = await loginChild(t.agent(), other);
    expect((await stranger.get(`/api/get-quiz-scores/${family.child.child_id}`)).status).toBe(403);
    const expert = await loginExpert(t.agent(), other.expert.code);
    expect((await expert.get(`/api/get-quiz-scores/${family.child.child_id}`)).status).toBe(403);
    const admin = await loginAdmin(t.agent());
    expect((await admin.get('/api/get-quiz-scores/12x')).status).toBe(400);
    expect((await admin.get('/api/get-quiz-scores/999999')).status).toBe(404);
    expect((await admin.get(`/api/get-quiz-scores/${family.child.child_id}?limit=0`)).status).toBe(400);
  });
});
