import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExpert, startTestApp, type TestApp } from '../helpers/app.js';
import { FakeProvider } from '../fake-provider/server.js';
import { addVideo, count } from './fixtures.js';
import { cookieFor, openRun, refusedStatus } from './ws-client.js';

let fake: FakeProvider;
let t: TestApp;
let base: string;
let admin: string;

beforeAll(async () => {
  fake = await FakeProvider.start();
  t = await startTestApp({ ...fake.env(), QUESTION_PROVIDER: 'openai', GENERATION_CONCURRENCY: '2', AI_MAX_RETRIES: '1' });
  base = await t.listen();
  admin = await cookieFor(base, 'admin');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

let n = 0;
/** a fresh video with frames: `seconds` long */
async function video(seconds: number, extra: Partial<Parameters<typeof addVideo>[2]> = {}): Promise<string> {
  const id = `wsvid${n++}`;
  await addVideo(t.db, t.dataDir, { id, seconds, ...extra });
  return id;
}
const full = { start_seconds: 0, interval_seconds: 10, full_duration: true };
const types = (events: Record<string, unknown>[]) => events.map((e) => e.type);

describe('/ws/questions/{video_id}', () => {
  it('refuses anonymous and non-admin sessions at the upgrade, before any work', async () => {
    const id = await video(20);
    expect(await refusedStatus(base, id, null)).toBe(401);
    const expert = await createExpert(t);
    expect(await refusedStatus(base, id, await cookieFor(base, 'expert', expert.code))).toBe(403);
    expect(await refusedStatus(base, '..%2Fetc', admin)).toBe(400);
    expect(fake.requests).toHaveLength(0);
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM question_segments WHERE video_id = ?', [id])).toBe(0);
  });

  it('streams status, one segment_result per segment and done, storing every result', async () => {
    const id = await video(60);
    fake.delayMs = 150;
    const run = await openRun(base, id, admin, full);
    const events = await run.closed;
    expect(types(events)[0]).toBe('status');
    expect(events[0]).toMatchObject({ phase: 'started', total: 6, done: 0, skipped: 0, provider: 'openai', model: 'gpt-4o-mini' });
    expect(types(events).at(-1)).toBe('done');
    expect(events.at(-1)).toMatchObject({ total: 6, generated: 6, failed: 0, skipped: 0, provider: 'openai' });
    const results = events.filter((e) => e.type === 'segment_result');
    expect(results.map((r) => [r.segment_range_start, r.segment_range_end]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [0, 10], [10, 20], [20, 30], [30, 40], [40, 50], [50, 60],
    ]);
    expect(results.every((r) => r.ok === true)).toBe(true);
    expect((results[0]!.result as { questions: unknown[] }).questions).toHaveLength(7);
    // a progress status follows every result, with done counting up to the total
    const progress = events.filter((e) => e.type === 'status' && e.phase === 'progress').map((e) => e.done);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    // concurrency: GENERATION_CONCURRENCY = 2 calls at most, and it was used
    expect(fake.maxInFlight).toBe(2);
    expect(fake.requests).toHaveLength(6);
    expect(fake.requests.every((r) => r.images === 5)).toBe(true);
    // stored: AI results and seeded review sets
    expect(await count(t.db, "SELECT COUNT(*) AS n FROM question_segments WHERE video_id = ? AND status = 'ok'", [id])).toBe(6);
    expect(await count(t.db, "SELECT COUNT(*) AS n FROM review_questions WHERE video_id = ? AND origin = 'generated'", [id])).toBe(42);
  });

  it('skips finished segments on a re-run unless asked to regenerate', async () => {
    const id = await video(30);
    await (await openRun(base, id, admin, full)).closed;
    expect(fake.requests).toHaveLength(3);
    const again = await (await openRun(base, id, admin, full)).closed;
    expect(again[0]).toMatchObject({ type: 'status', total: 3, skipped: 3, done: 3 });
    expect(again.at(-1)).toMatchObject({ type: 'done', generated: 0, skipped: 3 });
    expect(fake.requests).toHaveLength(3);
    const redo = await (await openRun(base, id, admin, { ...full, regenerate: true })).closed;
    expect(redo.at(-1)).toMatchObject({ type: 'done', generated: 3, skipped: 0 });
    expect(fake.requests).toHaveLength(6);
  });

  it('reports a failed segment as a structured error, stores it, and retries it on the next run', async () => {
    const id = await video(20);
    fake.script = ['refusal'];
    const events = await (await openRun(base, id, admin, { ...full, provider: 'anthropic' })).closed;
    const failed = events.find((e) => e.type === 'segment_result' && e.ok === false)!;
    expect(failed.error).toEqual({ code: 'refused', message: 'The model refused to answer.', retryable: false, provider: 'anthropic' });
    expect(events.at(-1)).toMatchObject({ type: 'done', generated: 1, failed: 1 });
    expect(await count(t.db, "SELECT COUNT(*) AS n FROM question_segments WHERE video_id = ? AND status = 'error' AND error_code = 'refused'", [id])).toBe(1);
    const again = await (await openRun(base, id, admin, full)).closed;
    expect(again.at(-1)).toMatchObject({ type: 'done', generated: 1, skipped: 1, failed: 0 });
    expect(await count(t.db, "SELECT COUNT(*) AS n FROM question_segments WHERE video_id = ? AND status = 'ok'", [id])).toBe(2);
  });

  it('cancels calls in flight when the socket closes and keeps what finished', async () => {
    const id = await video(60);
    fake.script = ['ok', 'ok'];
    fake.fallback = 'hang';
    const run = await openRun(base, id, admin, full);
    await fake.waitForRequests(4);
    await run.waitFor((e) => e.type === 'status' && e.done === 2);
    run.ws.close();
    await run.closed;
    await expect.poll(() => fake.requests.filter((r) => r.aborted).length).toBe(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.requests).toHaveLength(4); // nothing started after the close
    expect(await count(t.db, "SELECT COUNT(*) AS n FROM question_segments WHERE video_id = ? AND status = 'ok'", [id])).toBe(2);
    expect(await count(t.db, "SELECT COUNT(*) AS n FROM question_segments WHERE video_id = ? AND status = 'error'", [id])).toBe(0);
  });

  it('answers a bad payload with an error event and keeps the socket for a good one', async () => {
    const id = await video(20);
    const run = await openRun(base, id, admin, { start_seconds: -1, interval_seconds: 'ten', full_duration: true });
    const err = await run.waitFor((e) => e.type === 'error');
    expect(err).toMatchObject({ code: 'bad_payload' });
    expect(String(err.message)).toMatch(/interval_seconds/);
    run.ws.send('not json');
    await run.waitFor((e) => e.type === 'error' && e !== err);
    run.ws.send(JSON.stringify(full));
    const events = await run.closed;
    expect(events.at(-1)).toMatchObject({ type: 'done', generated: 2 });
  });

  it('refuses a video without frames, an unknown video and an unconfigured provider with an error event', async () => {
    const bare = `bare${n++}`;
    await addVideo(t.db, t.dataDir, { id: bare, seconds: 30, frames: false });
    expect((await (await openRun(base, bare, admin, full)).closed)).toEqual([
      expect.objectContaining({ type: 'error', code: 'no_frames' }),
    ]);
    expect((await (await openRun(base, 'nosuchvideo', admin, full)).closed)[0]).toMatchObject({ type: 'error', code: 'video_not_found' });
    const id = await video(20);
    expect((await (await openRun(base, id, admin, { ...full, start_seconds: 500 })).closed)[0]).toMatchObject({ code: 'nothing_to_generate' });
    expect(fake.requests).toHaveLength(0);
  });

  it('runs one segment with the builtin provider from the subtitles alone', async () => {
    const id = await video(48);
    const events = await (await openRun(base, id, admin, { start_seconds: 12, interval_seconds: 13, full_duration: false, provider: 'builtin' })).closed;
    const result = events.find((e) => e.type === 'segment_result') as { ok: boolean; result: { provider: string; questions: { question_type: string; question: string; answer: string }[] } };
    expect(result).toMatchObject({ ok: true, segment_range_start: 12, segment_range_end: 25, provider: 'builtin' });
    expect(result.result.questions).toContainEqual({ question_type: 'feeling', question: 'How did Penny feel?', answer: 'sad', llm_ranking: expect.any(Number) });
    expect(fake.requests).toHaveLength(0);
    expect(await t.db.first('SELECT provider, model FROM question_segments WHERE video_id = ?', [id])).toEqual({ provider: 'builtin', model: 'subtitle-rules-v1' });
  });

  it('sends at most 5 frames per segment, downscaled to 512 px', async () => {
    const id = await video(12, { frameSize: '1280x720' });
    await (await openRun(base, id, admin, { start_seconds: 0, interval_seconds: 12, full_duration: false, provider: 'gemini' })).closed;
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.api).toBe('gemini');
    expect(fake.requests[0]!.imageSizes).toEqual(Array(5).fill({ width: 512, height: 288 }));
  });
});
