import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExpert, loginAdmin, loginExpert, startTestApp, type Agent, type TestApp } from '../helpers/app.js';
import { FakeProvider } from '../fake-provider/server.js';

/** The AI judge through the real OpenAI SDK, against a fake provider on 127.0.0.1. */
let t: TestApp;
let fake: FakeProvider;
let admin: Agent;

beforeAll(async () => {
  fake = await FakeProvider.start();
  // a generous time-out: on a loaded machine the fake's answer may take a while, and only the
  // time-out test below is about the judge being too slow (it has its own app with a short one)
  t = await startTestApp({ OPENAI_BASE_URL: `${fake.url}/v1`, OPENAI_API_KEY: 'sk-test', AI_JUDGE_TIMEOUT_MS: '30000', AI_MAX_RETRIES: '0' });
  admin = await loginAdmin(t.agent());
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const borderline = { expected: 'with a ladder', user: 'they climbed up and got it', question: 'How did they get the cat down?' };

describe('POST /api/check_answer with an AI judge configured', () => {
  it('asks the judge about a borderline answer and says so in the reason', async () => {
    const res = await admin.post('/api/check_answer').send(borderline);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'almost', expected: borderline.expected, user: borderline.user });
    expect(res.body.reason).toContain('AI judge');
    expect(res.body.reason).toContain('Close to the expected answer.');
    expect(res.body.similarity).toBeGreaterThanOrEqual(0.4);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.api).toBe('openai');
    expect(fake.requests[0]!.text).toContain('Expected answer: with a ladder');
    expect(fake.requests[0]!.text).toContain("Child's answer (transcribed): they climbed up and got it");
  });

  it('does not ask about clear answers', async () => {
    const right = await admin.post('/api/check_answer').send({ expected: 'red', user: 'it was red' });
    const neg = await admin.post('/api/check_answer').send({ expected: 'red', user: 'not red' });
    const num = await admin.post('/api/check_answer').send({ expected: 'three', user: 'four', question: 'How many?' });
    expect([right.body.status, neg.body.status, num.body.status]).toEqual(['correct', 'wrong', 'wrong']);
    expect(fake.requests).toHaveLength(0);
  });

  it('keeps the offline grade when the judge does not answer in time', async () => {
    // the fake never answers ('hang'), so the short time-out always fires: no race with the machine's load
    const quick = await startTestApp({ OPENAI_BASE_URL: `${fake.url}/v1`, OPENAI_API_KEY: 'sk-test', AI_JUDGE_TIMEOUT_MS: '300', AI_MAX_RETRIES: '0' });
    try {
      fake.script = ['hang'];
      const res = await (await loginAdmin(quick.agent())).post('/api/check_answer').send(borderline);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'wrong', similarity: 0 });
      expect(res.body.reason).not.toContain('AI judge');
      await expect.poll(() => fake.requests[0]?.aborted).toBe(true);
    } finally {
      await quick.close();
    }
  });

  it('keeps the offline grade when the provider fails', async () => {
    fake.script = ['server_error'];
    const res = await admin.post('/api/check_answer').send(borderline);
    expect(res.body).toMatchObject({ status: 'wrong' });
    expect(res.body.reason).not.toContain('AI judge');
    expect(fake.requests).toHaveLength(1);
  });

  it('tells the player a judge is configured', async () => {
    const res = await t.agent().get('/api/config');
    expect(res.body.ai_judge).toBe(true);
  });
});

describe('the per-person AI judge budget (AI_JUDGE_MAX_PER_HOUR)', () => {
  it('stops asking for one person after the budget, keeps grading offline, and leaves others their own', async () => {
    const small = await startTestApp({ OPENAI_BASE_URL: `${fake.url}/v1`, OPENAI_API_KEY: 'sk-test', AI_JUDGE_TIMEOUT_MS: '30000', AI_MAX_RETRIES: '0', AI_JUDGE_MAX_PER_HOUR: '2' });
    try {
      const boss = await loginAdmin(small.agent());
      for (let i = 0; i < 3; i++) {
        const res = await boss.post('/api/check_answer').send(borderline);
        expect(res.status).toBe(200);
        expect(res.body.reason.includes('AI judge')).toBe(i < 2);
        expect(res.body.status).toBe(i < 2 ? 'almost' : 'wrong');
      }
      expect(fake.requests).toHaveLength(2);
      const expert = await loginExpert(small.agent(), (await createExpert(small)).code);
      const res = await expert.post('/api/check_answer').send(borderline);
      expect(res.body.reason).toContain('AI judge');
      expect(fake.requests).toHaveLength(3);
    } finally {
      await small.close();
    }
  });
});
