import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';
import { checkLayout, LAYOUT_ARTIFACTS, VIEWPORTS, type LayoutProblem, type Viewport } from './layout-check.js';
import { fastSpeech } from './kids-browser.js';
import { createClass, createProblem, enrol } from '../code-quiz/factories.js';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildClient } from '../../scripts/build-client.mjs';

/**
 * Every kids page (login, profiles, companion, videos, player, player at a question, end screen)
 * and every staff page at seven real screen sizes (iPad, iPad Air, iPad Pro, a phone, a laptop):
 * nothing wider than the viewport, touch targets big enough, no axe-core violations.
 * Screenshots go to test-artifacts/layout/ (git-ignored). One browser; one context per role and
 * viewport; one page per context, reused for every page.
 */

interface Segment { segment_range_start: number; segment_range_end: number; question: string; answer: string }

let t: TestApp;
let base: string;
let family: TestFamily;
let browser: Browser;
let videoId: string;
let segments: Segment[];
let childAgent: Agent;
let classId: number;
let problemId: number;
let problems: LayoutProblem[] = [];
const report = () => problems.map((p) => `${p.viewport} ${p.page}: ${p.problem}`);

beforeAll(async () => {
  fs.rmSync(LAYOUT_ARTIFACTS, { recursive: true, force: true });
  // the code page's editor bundle (npm test builds it too; this keeps the file runnable alone)
  await buildClient();
  t = await startTestApp({ SAMPLE_IMPORT: 'true', TTS_PROVIDER: 'local' });
  base = await t.listen();
  family = await createFamily(t, { first_name: 'Mia', icon_key: 'fox', interaction_mode: 'flexible' });
  // a keypad code (digits only)
  const code = String(100000 + Math.floor(Math.random() * 899999));
  const expert = await loginExpert(t.agent(), family.expert.code);
  expect((await expert.put(`/api/expert/parents/${family.parentId}/login-code`).send({ login_code: code })).status).toBe(200);
  family.parentCode = code;
  const admin = await loginAdmin(t.agent());
  const videos = await admin.get('/api/admin/videos');
  videoId = videos.body.videos[0].video_id;
  // the sample reaches a family through its expert, like every other video
  await admin.post('/api/admin/videos/assignments').send({ video_id: videoId, expert_id: family.expert.expert_id });
  childAgent = await loginChild(t.agent(), family);
  const q = await childAgent.get(`/api/final-questions/${videoId}?companion=bunny`);
  expect(q.status, JSON.stringify(q.body)).toBe(200);
  segments = (q.body.segments as Segment[]).slice().sort((a, b) => a.segment_range_end - b.segment_range_end);
  expect(segments.length).toBeGreaterThanOrEqual(2);
  // seven sessions on one day (as a keen child plays), so the reports have a time axis to tell apart
  for (let n = 0; n < 7; n++) {
    const save = await childAgent.post('/api/save-quiz-score').send({
      child_id: family.child.child_id, video_id: videoId, total_retries: n % 3, watch_minutes: 0.9, interaction_mode: n % 2 ? 'strict' : 'flexible',
      details: segments.map((s, i) => ({ question: s.question, expected: s.answer, user: (i + n) % 2 ? 'a cat' : s.answer, status: (i + n) % 2 ? 'wrong' : 'correct' })),
    });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
  }
  // a coding class with one problem (saved through the sandbox), so the code pages have content
  classId = await createClass(expert);
  await enrol(expert, classId, family.child.child_id);
  problemId = await createProblem(expert, classId);
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function newPage(vp: Viewport): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, hasTouch: true });
  const page = await context.newPage();
  // the companion's clips at 4x: the flow waits for each to end, so the pages are the same, sooner
  await fastSpeech(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  return { context, page, errors };
}

async function check(page: Page, name: string, vp: Viewport, kind: 'kids' | 'staff'): Promise<void> {
  // fonts and pictures settle before measuring
  await page.evaluate(() => document.fonts.ready);
  problems.push(...(await checkLayout(page, name, vp, kind, { noScroll: name.startsWith('player') })));
}

/** The player resumes from a checkpoint just before the last question, with the others answered. */
async function checkpointBeforeLast(): Promise<void> {
  const last = segments.at(-1)!;
  const res = await childAgent.put(`/api/quiz/checkpoints/${family.child.child_id}/${videoId}`).send({
    position_seconds: last.segment_range_end - 1.5,
    furthest_seconds: last.segment_range_end - 1,
    duration_seconds: last.segment_range_end,
    watch_minutes: 0.5,
    interaction_mode: 'flexible',
    details: segments.slice(0, -1).map((s) => ({
      question: s.question, expected: s.answer, user: s.answer, status: 'correct',
      segment_range_start: s.segment_range_start, segment_range_end: s.segment_range_end,
    })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('layout at seven viewports', () => {
  for (const vp of VIEWPORTS) {
    it(`kids pages at ${vp.width}x${vp.height}`, async () => {
      problems = [];
      const { context, page, errors } = await newPage(vp);
      await page.goto(`${base}/kids`);
      await check(page, 'login', vp, 'kids');
      for (const digit of family.parentCode) await page.click(`.key[data-key="${digit}"]`);
      await page.click('.key-go');
      await page.waitForURL('**/kids/profiles');
      await page.waitForSelector('.kcard-profile');
      await check(page, 'profiles', vp, 'kids');
      await page.click('.kcard-profile');
      await page.waitForURL('**/kids/companion');
      await check(page, 'companion', vp, 'kids');
      await page.click('[data-pick="pig"]');
      await page.waitForURL('**/kids/videos?companion=*', { timeout: 30_000 });
      await page.waitForSelector('.kcard-video');
      await check(page, 'videos', vp, 'kids');

      await checkpointBeforeLast();
      await page.click(`.kcard-video[data-video-id="${videoId}"]`);
      await page.waitForSelector('#player[data-state="ready"]', { timeout: 30_000 });
      await check(page, 'player', vp, 'kids');
      // the seek track stays long and its question marks stay apart (a 390 px phone included)
      const track = await page.evaluate(() => {
        const marks = [...document.querySelectorAll('#marks span')].map((m) => m.getBoundingClientRect());
        const centers = marks.map((r) => r.left + r.width / 2).sort((a, b) => a - b);
        const gaps = centers.slice(1).map((c, i) => c - centers[i]!);
        return { width: document.getElementById('seek')!.getBoundingClientRect().width, minGap: Math.min(...gaps), mark: marks[0]?.width ?? 0 };
      });
      expect(track.width).toBeGreaterThanOrEqual(vp.width * 0.45);
      expect(track.minGap).toBeGreaterThanOrEqual(track.mark);
      await page.click('#big-play');
      await page.waitForSelector('#ask:not([hidden])', { timeout: 30_000 });
      await check(page, 'player-question', vp, 'kids');
      // no microphone in this browser: a grown-up types the answer
      await page.waitForSelector('#type-form:not([hidden])', { timeout: 30_000 });
      await page.fill('#type-input', segments.at(-1)!.answer);
      await page.click('#type-form button[type="submit"]');
      await page.waitForSelector('#done:not([hidden])', { timeout: 60_000 });
      await check(page, 'end', vp, 'kids');
      // the coding puzzles (older children, same tablet)
      await page.goto(`${base}/kids/code`);
      await page.waitForLoadState('networkidle');
      await check(page, 'code-list', vp, 'kids');
      await page.goto(`${base}/kids/code/${problemId}`);
      await page.waitForLoadState('networkidle');
      await check(page, 'code-problem', vp, 'kids');
      await context.close();
      expect(report()).toEqual([]);
      expect(errors).toEqual([]);
    }, 120_000);

    it(`staff pages at ${vp.width}x${vp.height}`, async () => {
      problems = [];
      const { context, page, errors } = await newPage(vp);
      for (const p of ['/', '/admin', '/expert']) {
        await page.goto(`${base}${p}`);
        await check(page, `login${p.replace(/\//g, '-')}`, vp, 'staff');
      }
      const staffCookie = async (agent: Agent) => {
        const jar = (agent as unknown as { jar: { getCookies(o: object): { name: string; value: string }[] } }).jar;
        const cookie = jar.getCookies({ domain: '127.0.0.1', path: '/', secure: false, script: false }).find((c) => c.name === 'kvq.sid')!;
        await context.clearCookies();
        await context.addCookies([{ name: cookie.name, value: cookie.value, url: base }]);
      };
      await staffCookie(await loginAdmin(t.agent()));
      const adminPages: [string, string, string][] = [
        ['admin-videos', '/admin', '#videos, main'],
        ['admin-experts', '/admin/experts', 'main'],
        ['admin-children', '/admin/children', 'main'],
        ['admin-video', `/admin/videos/${videoId}`, 'main'],
        ['admin-report', `/admin/reports/${family.child.child_id}`, 'main'],
      ];
      const expertPages: [string, string, string][] = [
        ['expert-home', '/expert', 'main'],
        ['expert-questions', '/expert/questions', 'main'],
        ['expert-edit', `/expert/edit/${videoId}`, 'main'],
        ['expert-preview', `/expert/preview/${videoId}`, 'main'],
        ['expert-parents', '/expert/parents', 'main'],
        ['expert-reports', '/expert/reports', 'main'],
        ['expert-report', `/expert/reports/${family.child.child_id}`, 'main'],
        ['expert-account', '/expert/account', 'main'],
        ['expert-code', '/expert/code', 'main'],
        ['expert-code-class', `/expert/code/classes/${classId}`, 'main'],
      ];
      for (const [name, p] of adminPages) {
        await page.goto(`${base}${p}`);
        await page.waitForLoadState('networkidle');
        await check(page, name, vp, 'staff');
      }
      await staffCookie(await loginExpert(t.agent(), family.expert.code));
      for (const [name, p] of expertPages) {
        await page.goto(`${base}${p}`);
        await page.waitForLoadState('networkidle');
        await check(page, name, vp, 'staff');
        if (vp.width >= 1024) {
          // the top bar stays one row on a tablet in landscape and wider
          const bar = await page.evaluate(() => {
            const el = document.querySelector('.topbar')!;
            const tallest = Math.max(...[...el.children].map((c) => c.getBoundingClientRect().height));
            return { height: el.getBoundingClientRect().height, tallest };
          });
          if (bar.height > bar.tallest * 1.6) problems.push({ page: name, viewport: `${vp.width}x${vp.height}`, problem: `top bar wraps: ${Math.round(bar.height)} px tall` });
        }
      }
      await context.close();
      expect(report()).toEqual([]);
      expect(errors).toEqual([]);
    }, 180_000);
  }

});
