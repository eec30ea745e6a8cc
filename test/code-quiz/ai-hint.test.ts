import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeProvider } from '../fake-provider/server.js';
import { createFamily, loginChild, loginExpert, startTestApp, type Agent, type TestApp } from '../helpers/app.js';
import { normalizeWhitespace } from '../../src/code-quiz/align.js';
import { createClass, createProblem, enrol } from './factories.js';

let fake: FakeProvider;
let t: TestApp;
let child: Agent;
let problemId: number;

beforeAll(async () => {
  fake = await FakeProvider.start();
  t = await startTestApp({ OPENAI_BASE_URL: `${fake.url}/v1`, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'fake-coder', AI_MAX_RETRIES: '0', CODE_CALLS_PER_MINUTE: '0' });
  const fam = await createFamily(t);
  const expert = await loginExpert(t.agent(), fam.expert.code);
  const classId = await createClass(expert);
  await enrol(expert, classId, fam.child.child_id);
  problemId = await createProblem(expert, classId);
  child = await loginChild(t.agent(), fam);
});
beforeEach(() => fake.reset());
afterAll(async () => {
  await t.close();
  await fake.close();
});

const ask = () => child.post('/suggest').send({ problemId, code: 'n = int(input())\n', language: 'python', cursorPosition: { line: 2, column: 0 } });
const reply = (r: object) => (prompt: string) => (prompt.includes('The next step the child should write') ? JSON.stringify(r) : undefined);
const eventRow = async (id: number) => await t.db.first<Record<string, unknown>>('SELECT * FROM suggestion_events WHERE id = ?', [id]);

describe('POST /suggest with an AI provider (fake server, real SDK)', () => {
  it('uses the wording of the model, replacing an AI distractor that actually passes the tests', async () => {
    fake.textFor = reply({
      suggestion: 'for i in range(1, n + 1):',
      // 1 + n is the same loop: a "wrong" choice that is in fact right must never be shown as wrong
      distractors: ['for i in range(1, 1 + n):', 'for i in range(n):'],
      explanation: 'A loop that counts from 1 up to n.',
    });
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ suggestion: 'for i in range(1, n + 1):', explanation: 'A loop that counts from 1 up to n.', generator: 'openai' });
    expect(res.body.distractors).toHaveLength(2);
    expect(res.body.distractors).toContain('for i in range(n):');
    expect(res.body.distractors).not.toContain('for i in range(1, 1 + n):');
    // the replacement is one of the wrong lines proven when the problem was saved
    const saved = (await t.db.first<{ hints_json: string }>('SELECT hints_json FROM code_problems WHERE id = ?', [problemId]))!;
    const proven = (JSON.parse(saved.hints_json) as { line: number; distractors: { text: string }[] }[]).find((h) => h.line === 1)!.distractors.map((d) => d.text);
    expect(proven).toContain(res.body.distractors.find((d: string) => d !== 'for i in range(n):'));
    // the prompt reached the model through the SDK, with the child's code and the step
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.model).toBe('fake-coder');
    expect(fake.requests[0]!.text).toContain('n = int(input())');
    expect(await eventRow(res.body.event_id)).toMatchObject({ generator: 'openai', model: 'fake-coder', suggestion: 'for i in range(1, n + 1):' });
  });

  it('never gives away more than one line: a multi-line AI suggestion becomes the next reference line', async () => {
    fake.textFor = reply({
      suggestion: 'for i in range(1, n + 1):\n    print(i)',
      distractors: ['for i in range(1, n):\n    print(i)', 'for i in range(0, n):'],
      explanation: 'Count with a loop.',
    });
    const res = await ask();
    expect(res.body.suggestion).toBe('for i in range(1, n + 1):');
    for (const d of res.body.distractors) {
      expect(d).not.toContain('\n');
      expect(normalizeWhitespace(d)).not.toBe(normalizeWhitespace(res.body.suggestion));
    }
    expect(res.body.distractors).toContain('for i in range(0, n):');
    expect(res.body.distractors).toHaveLength(2);
  });

  it('falls back to the offline hint when the provider fails', async () => {
    fake.script = ['server_error'];
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ suggestion: 'for i in range(1, n + 1):', generator: 'offline' });
    expect(res.body.distractors).toHaveLength(2);
    expect(await eventRow(res.body.event_id)).toMatchObject({ generator: 'offline', model: null });
  });
});
