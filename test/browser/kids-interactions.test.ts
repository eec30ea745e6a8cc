import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { KidsLog, launchKidsBrowser, speakToWav } from './kids-browser.js';

/**
 * The child's screens in Chromium, for what a first real use found: the login page speaks from
 * pre-rendered clips (no anonymous POST /api/tts), a favicon, "Another family" needs a grown-up's
 * 2-second hold, the player listens with the server's settings, and a tap on the microphone while
 * the companion is still asking stops the speech and starts listening at once.
 */

interface Segment { segment_range_start: number; segment_range_end: number; question: string; answer: string }

let t: TestApp;
let base: string;
let family: TestFamily;
let browser: Browser;
let videoId: string;
let first: Segment;
let tmp: string;

beforeAll(async () => {
  t = await startTestApp({ SAMPLE_IMPORT: 'true', TTS_PROVIDER: 'local', TRANSCRIBE_PROVIDER: 'local', ANSWER_TIME_LIMIT_SECONDS: '7' });
  base = await t.listen();
  family = await createFamily(t, { first_name: 'Ivy', icon_key: 'cat', interaction_mode: 'flexible' });
  const code = String(100000 + Math.floor(Math.random() * 899999));
  const expert = await loginExpert(t.agent(), family.expert.code);
  expect((await expert.put(`/api/expert/parents/${family.parentId}/login-code`).send({ login_code: code })).status).toBe(200);
  family.parentCode = code;
  const admin = await loginAdmin(t.agent());
  videoId = (await admin.get('/api/admin/videos')).body.videos[0].video_id;
  await admin.post('/api/admin/videos/assignments').send({ video_id: videoId, expert_id: family.expert.expert_id });
  const child: Agent = await loginChild(t.agent(), family);
  const q = await child.get(`/api/final-questions/${videoId}?companion=bunny`);
  first = (q.body.segments as Segment[]).slice().sort((a, b) => a.segment_range_end - b.segment_range_end)[0]!;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kids-interactions-'));
  browser = await launchKidsBrowser(speakToWav(first.answer, tmp));
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const spoken = (page: Page) => page.evaluate(() => (window as unknown as { kidsSpeech: { text: string; via: string }[] }).kidsSpeech);
const sessionStatus = (page: Page) => page.evaluate(() => fetch('/api/learners/session').then((r) => r.status));

async function typeCode(page: Page): Promise<void> {
  for (const digit of family.parentCode) await page.click(`.key[data-key="${digit}"]`);
  await page.click('.key-go');
  await page.waitForURL('**/kids/profiles');
  await page.waitForSelector('.kcard-profile');
}

describe('the child screens in Chromium', () => {
  it('speaks the login page from a clip, never asks /api/tts without a session, and has a favicon', async () => {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 }, hasTouch: true });
    const log = new KidsLog(page, 'interactions-login');
    const clips: number[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/kids/voice/')) clips.push(r.status());
    });
    await page.goto(`${base}/kids`);
    await expect.poll(async () => (await spoken(page)).find((e) => e.text.startsWith('Hello!'))?.via, { timeout: 30_000 }).toBe('tts');
    // the <audio> element asks with a Range header: 206 is the whole clip's first answer
    expect(clips.length).toBeGreaterThan(0);
    expect(clips.every((s) => s === 200 || s === 206)).toBe(true);
    expect(log.calls('POST', '/api/tts')).toEqual([]);
    const icon = await page.evaluate(async () => {
      const href = document.querySelector('link[rel="icon"]')!.getAttribute('href')!;
      const r = await fetch(href);
      const ico = await fetch('/favicon.ico');
      return { status: r.status, type: r.headers.get('content-type'), ico: ico.status, icoUrl: new URL(ico.url).pathname };
    });
    expect(icon).toEqual({ status: 200, type: expect.stringMatching(/^image\/svg\+xml/), ico: 200, icoUrl: '/static/favicon.svg' });
    expect(log.errors).toEqual([]);
    await page.close();
  });

  it('logs the tablet out only after a grown-up holds "Another family" for 2 seconds', async () => {
    const page = await browser.newPage({ viewport: { width: 768, height: 1024 }, hasTouch: true });
    const log = new KidsLog(page, 'interactions-hold');
    await page.goto(`${base}/kids`);
    await typeCode(page);
    // a child's tap: nothing happens but the explanation
    await page.click('#logout');
    await expect.poll(async () => (await spoken(page)).some((e) => e.text.startsWith('Grown-ups: press and hold'))).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/kids/profiles');
    expect(await sessionStatus(page)).toBe(200);
    expect(log.calls('POST', '/api/learners/logout')).toEqual([]);
    // a grown-up's hold
    const box = (await page.locator('#logout').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.waitForURL(`${base}/kids`, { timeout: 15_000 });
    await page.mouse.up();
    expect(log.calls('POST', '/api/learners/logout').map((c) => c.status)).toEqual([200]);
    expect(await sessionStatus(page)).toBe(401);
    expect(log.errors).toEqual([]);
    await page.close();
  });

  it("listens with the server's settings, and a tap on the microphone interrupts the question", async () => {
    const page = await browser.newPage({ viewport: { width: 1180, height: 820 }, hasTouch: true });
    const log = new KidsLog(page, 'interactions-mic');
    await page.goto(`${base}/kids`);
    await typeCode(page);
    await page.click('.kcard-profile');
    await page.waitForURL('**/kids/companion');
    await page.click('[data-pick="bunny"]');
    await page.waitForURL('**/kids/videos?companion=*', { timeout: 30_000 });
    await page.click(`.kcard-video[data-video-id="${videoId}"]`);
    await page.waitForSelector('#player[data-state="ready"]', { timeout: 30_000 });
    // GET /api/config: ANSWER_TIME_LIMIT_SECONDS=7 here, silence_seconds and max_silent_retries as served
    const config = await page.evaluate(() => fetch('/api/config').then((r) => r.json()));
    expect(await page.locator('#player').evaluate((el) => ({ ...(el as HTMLElement).dataset }))).toMatchObject({
      answerLimitMs: '7000',
      silenceMs: String(config.silence_seconds * 1000),
      maxSilentRetries: String(config.max_silent_retries),
    });
    await page.evaluate(() => {
      const v = document.querySelector('video')!;
      v.defaultPlaybackRate = 8;
      v.playbackRate = 8;
    });
    await page.click('#big-play');
    await page.waitForSelector('#player[data-state="asking"]', { timeout: 30_000 });
    await expect.poll(() => page.locator('#ask-question').textContent()).toBe(first.question);
    // the child knows the answer: the tap stops the companion and opens the microphone
    await page.click('#ask-answer');
    await page.waitForSelector('#player[data-state="listening"]', { timeout: 15_000 });
    const question = (await spoken(page)).find((e) => e.text === first.question);
    expect(question?.via).toBe('none'); // not played to its end
    await log.screenshot('interrupted');
    await page.waitForSelector('#feedback[data-status]', { timeout: 60_000 });
    expect(await page.locator('#feedback').getAttribute('data-status')).toBe('correct');
    expect(log.calls('POST', '/api/transcribe').map((c) => c.status)).toEqual([200]);
    expect(log.errors).toEqual([]);
    await page.close();
  }, 120_000);
});
