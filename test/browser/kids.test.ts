import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginChild, loginExpert, startTestApp, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { KidsLog, fastSpeech, launchKidsBrowser, speakToWav, startFakeTranscriber, type FakeTranscriber } from './kids-browser.js';

/**
 * The child experience end to end in Chromium: family code on the keypad, profile, companion,
 * the bundled sample, a pause, the question spoken (TTS), the answer spoken into a fake
 * microphone (a WAV espeak-ng made), transcribed, graded, reacted to, the attempt saved, and the
 * child's words in the parent's report.
 */

interface Segment {
  segment_range_start: number;
  segment_range_end: number;
  question: string;
  answer: string;
}

interface Setup {
  t: TestApp;
  base: string;
  family: TestFamily;
  code: string;
  videoId: string;
  segments: Segment[];
  tmp: string;
}

/** A real app with the sample imported and a family whose code is all digits (for the keypad). */
async function setup(env: Record<string, string>, childFields: Record<string, unknown>, companion: string): Promise<Setup> {
  const t = await startTestApp({ SAMPLE_IMPORT: 'true', TTS_PROVIDER: 'local', ...env });
  const base = await t.listen();
  const family = await createFamily(t, childFields);
  // the sample reaches a family through its expert, like any library video
  await t.db.run('INSERT INTO video_assignments (video_id, expert_id) SELECT id, ? FROM videos WHERE is_sample = 1', [family.expert.expert_id]);
  const code = String(100000 + Math.floor(Math.random() * 899999));
  const expert = await loginExpert(t.agent(), family.expert.code);
  const res = await expert.put(`/api/expert/parents/${family.parentId}/login-code`).send({ login_code: code });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  family.parentCode = code;

  const child = await loginChild(t.agent(), family);
  const videos = await child.get('/api/kids_videos');
  expect(videos.status).toBe(200);
  expect(videos.body.count).toBeGreaterThan(0);
  const videoId: string = videos.body.videos[0].video_id;
  const q = await child.get(`/api/final-questions/${videoId}?companion=${companion}`);
  expect(q.status, JSON.stringify(q.body)).toBe(200);
  const segments = (q.body.segments as Segment[]).slice().sort((a, b) => a.segment_range_end - b.segment_range_end);
  expect(segments.length).toBeGreaterThanOrEqual(2);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kids-browser-'));
  return { t, base, family, code, videoId, segments, tmp };
}

/** Keypad, profile, companion, grid: ends on the player page. */
async function walkToPlayer(page: Page, log: KidsLog, s: Setup, companion: string): Promise<void> {
  await fastSpeech(page);
  await page.goto(`${s.base}/kids`);
  await expect.poll(() => page.locator('.key').count()).toBe(12);
  await log.screenshot('login');
  for (const digit of s.code) await page.click(`.key[data-key="${digit}"]`);
  await page.click('.key-go');
  await page.waitForURL('**/kids/profiles');
  await page.waitForSelector(`.kcard-profile[data-child-id="${s.family.child.child_id}"]`);
  await log.screenshot('profiles');
  await page.click(`.kcard-profile[data-child-id="${s.family.child.child_id}"]`);
  await page.waitForURL('**/kids/companion');
  await log.screenshot('companion');
  await page.click(`[data-pick="${companion}"]`);
  await page.waitForURL('**/kids/videos?companion=*', { timeout: 30_000 });
  await page.waitForSelector(`.kcard-video[data-video-id="${s.videoId}"]`);
  await log.screenshot('videos');
  await page.click(`.kcard-video[data-video-id="${s.videoId}"]`);
  await page.waitForURL(`**/kids/play/${s.videoId}?companion=${companion}`);
  await page.waitForSelector('#player[data-state="ready"]', { timeout: 30_000 });
  await fastVideo(page);
  await log.screenshot('player-ready');
}

/**
 * The 51 s sample at eight times its speed: the pauses come from the segment ends, not from the
 * clock, so every question is still asked where it belongs.
 */
async function fastVideo(page: Page): Promise<void> {
  await page.evaluate(() => {
    const v = document.querySelector('video')!;
    v.defaultPlaybackRate = 8;
    v.playbackRate = 8;
  });
}

const state = (page: Page) => page.locator('#player').getAttribute('data-state');

async function waitState(page: Page, wanted: string, timeout = 60_000): Promise<void> {
  await page.waitForSelector(`#player[data-state="${wanted}"]`, { timeout });
}

async function expertReport(s: Setup, agent?: Agent) {
  const expert = agent ?? (await loginExpert(s.t.agent(), s.family.expert.code));
  const res = await expert.get(`/api/learners/children/${s.family.child.child_id}/report`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Record<string, unknown>;
}

describe('child experience in Chromium, answering aloud through the local recognizer', () => {
  let s: Setup;
  let browser: Browser;
  const companion = 'pig';

  beforeAll(async () => {
    s = await setup({ TRANSCRIBE_PROVIDER: 'local' }, { first_name: 'Mia', icon_key: 'fox', interaction_mode: 'flexible' }, companion);
    browser = await launchKidsBrowser(speakToWav(s.segments[0]!.answer, s.tmp));
  });

  afterAll(async () => {
    await browser?.close();
    await s?.t.close();
    if (s) fs.rmSync(s.tmp, { recursive: true, force: true });
  });

  it('logs in, plays the sample, asks aloud, hears the right answer and reports it', async () => {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 }, hasTouch: true });
    const log = new KidsLog(page, 'local');
    await walkToPlayer(page, log, s, companion);
    const first = s.segments[0]!;

    await page.click('#big-play');
    await waitState(page, 'asking');
    expect(await page.evaluate(() => document.querySelector('video')!.currentTime)).toBeGreaterThanOrEqual(first.segment_range_end - 0.5);
    await expect.poll(() => page.locator('#ask-question').textContent()).toBe(first.question);
    expect(await page.locator('#ask .companion-pig').isVisible()).toBe(true);
    await log.screenshot('question');

    // the question was spoken by the service in the pig's voice and played to its end
    await waitState(page, 'listening');
    const tts = log.calls('POST', '/api/tts');
    const questionTts = tts.find((c) => c.request.postDataJSON()?.text === first.question);
    expect(questionTts, JSON.stringify(tts.map((c) => c.request.postDataJSON()))).toBeDefined();
    expect(questionTts!.request.postDataJSON().companion).toBe(companion);
    expect(questionTts!.status).toBe(200);
    const spoken = await page.evaluate(() => (window as unknown as { kidsSpeech: { text: string; via: string }[] }).kidsSpeech);
    expect(spoken.find((e) => e.text === first.question)?.via).toBe('tts');
    await log.screenshot('listening');

    // the answer, spoken into the microphone, comes back graded correct
    await page.waitForSelector('#feedback[data-status]', { timeout: 60_000 });
    await log.screenshot('feedback');
    expect(await page.locator('#feedback').getAttribute('data-status')).toBe('correct');
    const heard = (await page.locator('#heard').textContent()) ?? '';
    expect(heard.toLowerCase()).toContain(first.answer.toLowerCase().replace(/^(a|an|the) /, ''));
    expect(log.calls('POST', '/api/transcribe')[0]!.status).toBe(200);
    const [form] = await log.transcribeForms();
    expect(form).toMatchObject({ video_id: s.videoId, segment_start: String(first.segment_range_start) });
    expect(form!.file).toMatch(/^audio\/(webm|ogg|mp4)/);
    expect(log.calls('POST', '/api/check_answer')[0]!.request.postDataJSON()).toMatchObject({ expected: first.answer, question: first.question });

    // the other questions hear the same words: wrong, and (flexible) the pig says the answer and goes on
    await waitState(page, 'done', 240_000);
    await page.waitForSelector('#player[data-saved]');
    await log.screenshot('done');
    expect(await page.locator('#player').getAttribute('data-saved')).toBe('yes');
    expect(Number(await page.locator('#done-stars').getAttribute('data-stars'))).toBeGreaterThanOrEqual(1);

    const save = log.calls('POST', '/api/save-quiz-score');
    expect(save).toHaveLength(1);
    const attempt = save[0]!.request.postDataJSON();
    expect(attempt).toMatchObject({ child_id: s.family.child.child_id, video_id: s.videoId, interaction_mode: 'flexible', companion, total_retries: 0 });
    expect(attempt.details).toHaveLength(s.segments.length);
    expect(attempt.details[0]).toMatchObject({ question: first.question, expected: first.answer, status: 'correct' });
    for (const d of attempt.details.slice(1)) expect(d.status).not.toBe('correct');
    expect(attempt.percentage).toBeCloseTo((100 * 1) / s.segments.length, 0);

    // the parent sees the attempt and the child's own words for the answers that were not correct
    const report = await expertReport(s);
    const text = JSON.stringify(report).toLowerCase();
    expect(text).toContain(s.videoId.toLowerCase());
    const wrongWords = attempt.details.slice(1).map((d: { user: string }) => d.user).filter(Boolean);
    expect(wrongWords.length).toBeGreaterThan(0);
    for (const w of wrongWords) expect(text).toContain(String(w).toLowerCase());

    // back on the grid, the finished video has its star
    await page.click('#done-home');
    await page.waitForSelector(`.kcard-video[data-video-id="${s.videoId}"] .done-badge`);
    await log.screenshot('videos-star');
    expect(log.errors).toEqual([]);
    await page.close();
  }, 300_000);
});

describe('child experience in Chromium, strict mode through a cloud transcription server', () => {
  let s: Setup;
  let browser: Browser;
  let fake: FakeTranscriber;
  const companion = 'bunny';
  // upload n -> what the "child" said: right, wrong (strict replays), then right for the rest
  const script = (n: number) => [s.segments[0]!.answer, 'a purple dinosaur', ...s.segments.slice(1).map((x) => x.answer)][n] ?? '';

  beforeAll(async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kids-fake-'));
    fake = await startFakeTranscriber(tmp, (n) => script(n));
    s = await setup(
      { TRANSCRIBE_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test-not-real', OPENAI_BASE_URL: fake.url },
      { first_name: 'Leo', icon_key: 'rocket', interaction_mode: 'strict' },
      companion,
    );
    browser = await launchKidsBrowser(speakToWav('hello there', s.tmp));
  });

  afterAll(async () => {
    await browser?.close();
    await fake?.close();
    await s?.t.close();
    if (s) fs.rmSync(s.tmp, { recursive: true, force: true });
  });

  it('replays the segment on a wrong answer, resumes after leaving, and saves the retries', async () => {
    const page = await browser.newPage({ viewport: { width: 768, height: 1024 }, hasTouch: true });
    const log = new KidsLog(page, 'strict');
    await walkToPlayer(page, log, s, companion);
    expect(await page.locator('#ask-skip').isHidden()).toBe(true);
    await page.click('#big-play');

    await page.waitForSelector('#feedback[data-status="correct"]', { timeout: 60_000 });
    // second question: a wrong answer, so the bunny replays the segment from its start
    await page.waitForSelector('#feedback[data-status="wrong"]', { timeout: 60_000 });
    await log.screenshot('wrong');
    const second = s.segments[1]!;
    await expect.poll(() => log.states(), { timeout: 60_000 }).toContain('replaying');
    const t = await page.evaluate(() => document.querySelector('video')!.currentTime);
    expect(t).toBeLessThan(second.segment_range_end - 1);
    await page.waitForSelector('#feedback[data-status="correct"]', { timeout: 60_000 });
    await waitState(page, 'playing');
    const states = await log.states();
    const replay = states.indexOf('replaying');
    // after the replay: played again up to the segment's end, asked again
    expect(states.slice(replay)).toEqual(expect.arrayContaining(['replaying', 'playing', 'asking', 'listening', 'feedback']));

    // leave mid-video: a checkpoint is saved; coming back resumes after the answered questions
    await page.evaluate(() => document.querySelector('video')!.pause());
    await page.goto(`${s.base}/kids/videos`);
    // the grid shows how far the child got
    await page.waitForSelector(`.kcard-video[data-video-id="${s.videoId}"] .resume-badge`);
    await log.screenshot('videos-resume');
    await page.goto(`${s.base}/kids/play/${s.videoId}?companion=${companion}`);
    await page.waitForSelector('#player[data-state="ready"]');
    const resumedAt = await page.evaluate(() => document.querySelector('video')!.currentTime);
    expect(resumedAt).toBeGreaterThanOrEqual(second.segment_range_end - 1);
    await fastVideo(page);
    await log.screenshot('resumed');
    await page.click('#big-play');
    await waitState(page, 'done', 240_000);
    await page.waitForSelector('#player[data-saved]');
    await log.screenshot('done');
    expect(await page.locator('#player').getAttribute('data-saved')).toBe('yes');

    const attempt = log.calls('POST', '/api/save-quiz-score')[0]!.request.postDataJSON();
    expect(attempt).toMatchObject({ interaction_mode: 'strict', companion, total_retries: 1 });
    expect(attempt.details.map((d: { status: string }) => d.status)).toEqual(['correct', 'wrong', ...s.segments.slice(2).map(() => 'correct')]);
    expect(attempt.details[1]).toMatchObject({ user: 'a purple dinosaur', retries: 1, final_status: 'correct' });
    expect(fake.uploads.length).toBe(s.segments.length + 1);
    expect(fake.uploads[0]!.model).toBeTruthy();

    const report = JSON.stringify(await expertReport(s)).toLowerCase();
    expect(report).toContain('a purple dinosaur');
    expect(log.errors).toEqual([]);
    await page.close();
  }, 300_000);
});
