import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createProviders } from '../../src/ai/providers.js';
import { ProviderError } from '../../src/ai/errors.js';
import type { SegmentInput } from '../../src/ai/types.js';
import { FakeProvider, type Api } from '../fake-provider/server.js';

let fake: FakeProvider;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-ai-'));
const logger = createLogger('silent');

beforeAll(async () => {
  fake = await FakeProvider.start();
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => fake.reset());

/** A generous time-out by default (a loaded machine must not turn a good reply into a time-out); the time-out tests set a short one against a fake that answers far later. */
function providers(env: Record<string, string> = {}) {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...fake.env(), AI_MAX_RETRIES: '2', AI_TIMEOUT_MS: '20000', ...env });
  return createProviders(config, logger, { retryBaseDelayMs: 5 });
}

const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
const segment: SegmentInput = {
  videoId: 'vid1',
  title: 'Penny and the Red Ball',
  start: 30,
  end: 60,
  subtitles: [{ time: 31, text: 'Penny felt sad.' }],
  frames: [30, 45].map((t) => ({ timestamp: t, data: jpeg, mimeType: 'image/jpeg' as const })),
};

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe.each<Api>(['openai', 'anthropic', 'gemini'])('%s through its official SDK', (api) => {
  const model = { openai: 'gpt-test', anthropic: 'claude-test', gemini: 'gemini-test' }[api];
  const env = { OPENAI_MODEL: 'gpt-test', ANTHROPIC_MODEL: 'claude-test', GEMINI_MODEL: 'gemini-test' };

  it('generates one question per type from frames and subtitles', async () => {
    const p = providers(env).get(api);
    const qs = await p.generateSegment(segment);
    expect(p.name).toBe(api);
    expect(qs.map((q) => q.question_type)).toEqual(['character', 'setting', 'feeling', 'action', 'causal', 'outcome', 'prediction']);
    expect(qs[0]).toEqual({ question_type: 'character', question: 'Fake character question about 0:30 to 1:00?', answer: 'answer character', llm_ranking: 1 });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ api, model, images: 2 });
    expect(fake.requests[0]!.text).toContain('[0:31] Penny felt sad.');
    expect(fake.requests[0]!.auth).toBeTruthy();
  });

  it('retries a 429 and then succeeds', async () => {
    fake.script = ['rate_limit'];
    const qs = await providers(env).get(api).generateSegment(segment);
    expect(qs).toHaveLength(7);
    expect(fake.requests.map((r) => r.mode)).toEqual(['rate_limit', 'ok']);
  });

  it('turns invalid JSON into a retryable invalid_reply after bounded retries', async () => {
    fake.fallback = 'invalid_json';
    const err = await failure(providers(env).get(api).generateSegment(segment));
    expect(err.toJSON()).toMatchObject({ code: 'invalid_reply', retryable: true, provider: api });
    expect(fake.requests).toHaveLength(3); // AI_MAX_RETRIES = 2
  });

  it('rejects a reply of the wrong shape, then accepts a good one', async () => {
    fake.script = ['wrong_shape'];
    await expect(providers(env).get(api).generateSegment(segment)).resolves.toHaveLength(7);
    expect(fake.requests).toHaveLength(2);
  });

  it('reports a refusal as refused, without retrying', async () => {
    fake.fallback = 'refusal';
    const err = await failure(providers(env).get(api).generateSegment(segment));
    expect(err.toJSON()).toMatchObject({ code: 'refused', retryable: false });
    expect(fake.requests).toHaveLength(1);
  });

  it('times out a slow reply and says so', async () => {
    fake.fallback = 'slow';
    const err = await failure(providers({ ...env, AI_MAX_RETRIES: '0', AI_TIMEOUT_MS: '1000' }).get(api).generateSegment(segment));
    expect(err.code).toBe('timeout');
    expect(fake.requests).toHaveLength(1);
  });

  it('cancels the HTTP call when the caller aborts', async () => {
    fake.fallback = 'hang';
    const controller = new AbortController();
    const pending = providers(env).get(api).generateSegment(segment, { signal: controller.signal });
    await fake.waitForRequests(1);
    controller.abort();
    const err = await failure(pending);
    expect(err.code).toBe('aborted');
    await expect.poll(() => fake.requests[0]!.aborted).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it('rewords for companions, regenerates one question and judges an answer', async () => {
    const p = providers(env).get(api);
    const variants = await p.writeVariants({ questionType: 'feeling', question: 'How does Penny feel?', answer: 'sad', companions: ['bunny', 'pig', 'alligator'] });
    expect(variants).toEqual({ bunny: 'Hop hop! How does Penny feel?', pig: 'Oink! How does Penny feel?', alligator: 'Snap snap! How does Penny feel?' });
    const q = await p.regenerateQuestion({ segment, questionType: 'causal', avoid: ['Why is Penny sad?'] });
    expect(q).toEqual({ question_type: 'causal', question: 'A fresh causal question?', answer: 'fresh answer' });
    expect(fake.requests[1]!.text).toContain('- Why is Penny sad?');
    expect(fake.requests[0]!.images).toBe(0);
    const verdict = await p.judgeAnswer({ question: 'How does Penny feel?', expected: 'sad', user: 'she is sat' });
    expect(verdict).toEqual({ status: 'almost', reason: 'Close to the expected answer.', provider: api });
  });
});

describe('createProviders', () => {
  it('starts without keys: builtin is the default and there is no judge', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const p = createProviders(config, logger);
    expect(p.defaultName()).toBe('builtin');
    expect(p.available()).toEqual(['builtin']);
    expect(p.judge()).toBeNull();
    expect(() => p.get('openai')).toThrow(expect.objectContaining({ code: 'not_configured' }));
  });

  it('auto picks the first configured provider, which also judges', async () => {
    const p = providers({ OPENAI_BASE_URL: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: '' });
    expect(p.defaultName()).toBe('gemini');
    expect(p.available()).toEqual(['builtin', 'gemini']);
    const judge = p.judge()!;
    expect(judge.provider).toBe('gemini');
    await expect(judge.judgeAnswer({ expected: 'a red ball', user: 'ball' })).resolves.toMatchObject({ status: 'almost', provider: 'gemini' });
    expect(fake.requests.map((r) => r.api)).toEqual(['gemini']);
  });

  it('QUESTION_PROVIDER picks the default explicitly', () => {
    expect(providers({ QUESTION_PROVIDER: 'anthropic' }).defaultName()).toBe('anthropic');
    expect(providers({ QUESTION_PROVIDER: 'builtin' }).judge()?.provider).toBe('openai');
  });

  it('the judge makes a single attempt within AI_JUDGE_TIMEOUT_MS', async () => {
    fake.fallback = 'slow';
    const judge = providers({ AI_JUDGE_TIMEOUT_MS: '200' }).judge()!;
    const err = await failure(judge.judgeAnswer({ expected: 'sad', user: 'sad' }));
    expect(err.code).toBe('timeout');
    expect(fake.requests).toHaveLength(1);
  });
});
