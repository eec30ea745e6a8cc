import { describe, expect, it } from 'vitest';
import { ProviderError, classifyError } from '../../src/ai/errors.js';
import { withRetry } from '../../src/ai/retry.js';
import { clock, judgePrompt, segmentPrompt, variantsPrompt } from '../../src/ai/prompts.js';
import { parseJsonReply, revealsAnswer, segmentReplySchema, toGeneratedQuestions, toVariants, variantsReplySchema } from '../../src/ai/replies.js';
import { looksLikeRefusal } from '../../src/ai/llm.provider.js';

describe('prompts', () => {
  it('describe the segment with timestamps and ask for every type in one JSON shape', () => {
    const p = segmentPrompt({
      videoId: 'v', title: 'Penny', start: 65, end: 95, after: [{ time: 96, text: 'not shown' }],
      subtitles: [{ time: 66.4, text: 'Penny felt sad.' }],
      frames: [{ timestamp: 65, data: Buffer.alloc(1), mimeType: 'image/jpeg' }],
    });
    expect(p.withImages).toBe(true);
    expect(p.system).toMatch(/children aged about 4 to 8/);
    expect(p.text).toContain('Video: Penny\nSegment: 1:05 to 1:35.\n1 frame(s) are attached, taken at 1:05.\nSubtitles with timestamps:\n[1:06] Penny felt sad.');
    for (const t of ['character', 'setting', 'feeling', 'action', 'causal', 'outcome', 'prediction']) expect(p.text).toContain(`- ${t}: `);
    expect(p.text).toContain('{"questions":[{"question_type":"character","question":"...","answer":"...","rank":1}]}');
    expect(p.text).not.toContain('not shown');
    expect(clock(3599)).toBe('59:59');
  });

  it('name each companion voice and the answer to keep', () => {
    const p = variantsPrompt({ questionType: 'feeling', question: 'How is Penny?', answer: 'sad', companions: ['pig'] });
    expect(p.withImages).toBe(false);
    expect(p.text).toContain('Expected answer (must stay right, do not include it): sad');
    expect(p.text).toContain('- pig: playful');
    expect(p.text).not.toContain('- bunny');
    expect(p.text).toContain('{"variants":{"pig":"..."}}');
    expect(judgePrompt({ expected: 'sad', user: 'sat' }).text).toContain("Child's answer (transcribed): sat");
  });
});

describe('reply parsing', () => {
  const good = { questions: [{ question_type: 'feeling', question: 'How is Penny?', answer: 'sad', rank: 2 }, { question_type: 'action', question: 'What does Penny do?', answer: 'runs', rank: 2 }] };

  it('accepts a fenced JSON reply and renumbers ranks in order', () => {
    const r = parseJsonReply('openai', '```json\n' + JSON.stringify(good) + '\n```', segmentReplySchema);
    expect(toGeneratedQuestions(r).map((q) => [q.question_type, q.llm_ranking])).toEqual([['feeling', 1], ['action', 2]]);
  });

  it.each([
    ['not json', 'Sure! Here you go'],
    ['unknown type', JSON.stringify({ questions: [{ question_type: 'who', question: 'Who?', answer: 'me', rank: 1 }] })],
    ['duplicate type', JSON.stringify({ questions: [good.questions[0], good.questions[0]] })],
    ['long answer', JSON.stringify({ questions: [{ ...good.questions[0], answer: 'one two three four five six seven eight nine ten eleven twelve thirteen' }] })],
    ['empty list', JSON.stringify({ questions: [] })],
  ])('rejects %s as a retryable invalid_reply', (_name, text) => {
    const err = (() => {
      try {
        parseJsonReply('anthropic', text, segmentReplySchema);
      } catch (e) {
        return e as ProviderError;
      }
      throw new Error('accepted');
    })();
    expect(err.toJSON()).toMatchObject({ code: 'invalid_reply', retryable: true, provider: 'anthropic' });
  });

  it('refuses variants that are missing or give the answer away', () => {
    const base = { question: 'What colour is the ball?', answer: 'red' };
    expect(() => toVariants('x', { variants: { pig: 'Oink!' } }, ['pig', 'bunny'], base)).toThrow(/no bunny variant/);
    expect(() => toVariants('x', parseJsonReply('x', '{"variants":{"pig":"Oink! Is the red ball red?"}}', variantsReplySchema), ['pig'], base)).toThrow(/gives the answer away/);
    expect(revealsAnswer('Who is it, Penny?', { question: 'Who is it?', answer: 'Penny' })).toBe(true);
    expect(revealsAnswer('Who is with Penny?', { question: 'Who is with Penny?', answer: 'Penny' })).toBe(false);
  });

  it('spots prose refusals', () => {
    expect(looksLikeRefusal("I'm sorry, but I can't help with that.")).toBe(true);
    expect(looksLikeRefusal('{"questions": []}')).toBe(false);
  });
});

describe('errors and retry', () => {
  it('classifies SDK-shaped errors', () => {
    const headers = new Headers({ 'retry-after': '2' });
    expect(classifyError('openai', { status: 429, headers })).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 2000 });
    expect(classifyError('openai', { status: 401 })).toMatchObject({ code: 'auth_failed', retryable: false });
    expect(classifyError('openai', { status: 404 })).toMatchObject({ code: 'bad_request', retryable: false });
    expect(classifyError('openai', { status: 503 })).toMatchObject({ code: 'unavailable', retryable: true });
    expect(classifyError('openai', { name: 'APIConnectionTimeoutError' })).toMatchObject({ code: 'timeout' });
    expect(classifyError('openai', new TypeError('fetch failed'))).toMatchObject({ code: 'unavailable' });
    expect(classifyError('openai', { name: 'APIUserAbortError' })).toMatchObject({ code: 'aborted', retryable: false });
  });

  it('retries only retryable errors, a bounded number of times', async () => {
    let calls = 0;
    const fail = (code: 'rate_limited' | 'refused') => withRetry(async () => {
      calls++;
      throw new ProviderError(code, code, 'p');
    }, { provider: 'p', maxRetries: 2, baseDelayMs: 1 });
    await expect(fail('rate_limited')).rejects.toMatchObject({ code: 'rate_limited' });
    expect(calls).toBe(3);
    calls = 0;
    await expect(fail('refused')).rejects.toMatchObject({ code: 'refused' });
    expect(calls).toBe(1);
    const attempts: number[] = [];
    await expect(withRetry(async (a) => {
      attempts.push(a);
      if (a < 1) throw new ProviderError('unavailable', 'x', 'p');
      return 'ok';
    }, { provider: 'p', maxRetries: 3, baseDelayMs: 1 })).resolves.toBe('ok');
    expect(attempts).toEqual([0, 1]);
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const p = withRetry(async () => {
      throw new ProviderError('rate_limited', 'x', 'p', 60_000);
    }, { provider: 'p', maxRetries: 1, signal: controller.signal, maxDelayMs: 60_000 });
    setTimeout(() => controller.abort(), 10);
    await expect(p).rejects.toMatchObject({ code: 'aborted' });
  });
});
