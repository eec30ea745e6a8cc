import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type TestApp, type TestFamily } from '../helpers/app.js';
import { GRADING_THRESHOLDS } from '../../src/quiz/grading/thresholds.js';

let t: TestApp;
let family: TestFamily;

beforeAll(async () => {
  t = await startTestApp();
  family = await createFamily(t);
});
afterAll(() => t.close());

describe('POST /api/check_answer', () => {
  const valid = { expected: 'red', user: 'um it was read', question: 'What color was the barn?' };

  it('grades for a child session', async () => {
    const child = await loginChild(t.agent(), family);
    const res = await child.post('/api/check_answer').send(valid);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      similarity: 0.95,
      expected: 'red',
      user: 'um it was read',
      status: 'correct',
      is_numeric: false,
      reason: expect.stringContaining('"read" sounds like "red"'),
    });
  });

  it('grades for an admin and for an expert preview', async () => {
    const admin = await loginAdmin(t.agent());
    const a = await admin.post('/api/check_answer').send({ expected: 'three', user: 'four', question: 'How many eggs?' });
    expect(a.body).toMatchObject({ status: 'wrong', is_numeric: true, similarity: 0 });
    const expert = await loginExpert(t.agent(), family.expert.code);
    const e = await expert.post('/api/check_answer').send({ expected: 'pink and purple', user: 'pink' });
    expect(e.body).toMatchObject({ status: 'almost', expected: 'pink and purple', user: 'pink' });
  });

  it('grades silence as wrong rather than refusing it', async () => {
    const admin = await loginAdmin(t.agent());
    const res = await admin.post('/api/check_answer').send({ expected: 'a flag', user: '' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'wrong', similarity: 0, reason: expect.stringContaining('No answer was heard') });
  });

  it('refuses anonymous callers', async () => {
    const res = await t.agent().post('/api/check_answer').send(valid);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: 'not_logged_in' });
  });

  const long = 'a'.repeat(GRADING_THRESHOLDS.max_text_length + 1);
  it.each([
    ['expected missing', { user: 'red' }, 'expected'],
    ['expected empty', { expected: '  ', user: 'red' }, 'expected'],
    ['expected too long', { expected: long, user: 'red' }, 'at most 500'],
    ['user missing', { expected: 'red' }, 'user'],
    ['user not a string', { expected: 'red', user: 5 }, 'user'],
    ['user too long', { expected: 'red', user: long }, 'at most 500'],
    ['question too long', { expected: 'red', user: 'red', question: long }, 'at most 500'],
    ['question not a string', { expected: 'red', user: 'red', question: ['x'] }, 'question'],
  ])('400 when %s', async (_name, body, words) => {
    const admin = await loginAdmin(t.agent());
    const res = await admin.post('/api/check_answer').send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'validation_error' });
    expect(res.body.message).toContain(words);
  });
});

describe('GET /api/config', () => {
  it('is public and serves skip prevention and the grading thresholds', async () => {
    const res = await t.agent().get('/api/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      skip_prevention: true,
      thresholds: JSON.parse(JSON.stringify(GRADING_THRESHOLDS)),
      answer_time_limit_seconds: 15,
      interaction_modes: ['strict', 'flexible', 'passive'],
      ai_judge: false,
    });
  });

  it('follows SKIP_PREVENTION and ANSWER_TIME_LIMIT_SECONDS', async () => {
    const other = await startTestApp({ SKIP_PREVENTION: 'false', ANSWER_TIME_LIMIT_SECONDS: '30' });
    try {
      const res = await other.agent().get('/api/config');
      expect(res.body).toMatchObject({ skip_prevention: false, answer_time_limit_seconds: 30 });
    } finally {
      await other.close();
    }
  });
});
