import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, TEST_ADMIN_PASSWORD, type TestApp } from '../helpers/app.js';
import { FakeProvider } from '../fake-provider/server.js';
import { startFixtureSite, type FixtureSite } from './staff-fixture.js';
import { launchBrowser, PageLog } from './staff-browser.js';
import { childrenPage, expertsPage } from './staff-accounts.js';

/**
 * The whole staff workflow in Chromium against the real app: the admin logs in, creates an
 * expert and a child, downloads a clip from a site on 127.0.0.1, extracts frames, generates
 * questions (OpenAI's SDK against the fake provider: one part fails and is retried) while the
 * progress bar fills, submits
 * and assigns; the expert logs in, ranks, edits, picks the pig's wording and finalizes; a child
 * then gets that wording from /api/final-questions. Screenshots go to test-artifacts/staff/.
 */
describe('staff pages in a browser', () => {
  let t: TestApp;
  let site: FixtureSite;
  let fake: FakeProvider;
  let browser: Browser;
  let base: string;
  const expert = { id: 'ms-rivera', name: 'Ms Rivera', code: 'rivera-2024', newCode: 'rivera-2025' };
  const familyCode = 'leo-home-7';
  let videoId = '';
  let pigWording = '';

  beforeAll(async () => {
    site = await startFixtureSite();
    fake = await FakeProvider.start();
    // Generation runs one segment at a time so the scripted failure hits the first segment.
    t = await startTestApp({
      ...fake.env(),
      DOWNLOAD_EXTRA_HOSTS: '127.0.0.1',
      DOWNLOAD_AUTH_MODE: 'none',
      QUESTION_PROVIDER: 'builtin',
      GENERATION_CONCURRENCY: '1',
      AI_MAX_RETRIES: '0',
    });
    base = await t.listen();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await site?.close();
    await fake?.close();
  });

  async function newPage(width = 1280, height = 900): Promise<{ ctx: BrowserContext; page: Page; log: PageLog }> {
    const ctx = await browser.newContext({ viewport: { width, height }, baseURL: base });
    const page = await ctx.newPage();
    return { ctx, page, log: new PageLog(page) };
  }

  it('lets the admin and an expert run the whole flow', { timeout: 240_000 }, async () => {
    const { ctx, page, log } = await newPage();
    page.on('dialog', (d) => void d.accept()); // confirmations of deactivate, delete, unlink

    // Home chooser -> admin login: a wrong password is reported next to the field, the value kept.
    await page.goto('/');
    await log.screenshot('home');
    await page.getByRole('link', { name: /Admin/ }).click();
    await page.getByLabel('Admin password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.locator('#password-error').textContent()).toMatch(/\S/);
    expect(await page.getByLabel('Admin password').inputValue()).toBe('not-the-password');
    expect(await page.getByLabel('Admin password').getAttribute('aria-invalid')).toBe('true');
    await log.screenshot('admin-login-error');
    await page.getByLabel('Admin password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/admin`);

    await expertsPage(page, log, t, expert);
    await childrenPage(page, log, t, expert.id);

    // Videos: a link from another site is refused with its code and hint; the fixture downloads.
    await page.getByRole('link', { name: 'Videos' }).click();
    await page.getByLabel('Video link').fill('https://evil.example.com/watch?v=abc');
    await page.getByRole('button', { name: 'Download' }).click();
    // said once, next to the link: no result panel, no toast
    await expect.poll(() => page.locator('[data-error-for=url]').textContent()).toMatch(/\S/);
    expect(await page.getByLabel('Video link').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('[data-testid=download-result]').count()).toBe(0);
    expect(await page.locator('#toast').textContent()).toBe('');
    await log.screenshot('download-refused');
    // an empty link is caught in the page, in plain words, before any request
    await page.getByLabel('Video link').fill('');
    await page.getByRole('button', { name: 'Download' }).click();
    expect(await page.locator('[data-error-for=url]').textContent()).toBe('Enter the video link.');
    await page.getByLabel('Video link').fill(site.pageUrl);
    await page.getByRole('button', { name: 'Download' }).click();
    await page.locator('[data-testid=download-result].msg-ok').waitFor({ timeout: 120_000 });
    const row = await t.db.first<{ id: string; state: string }>("SELECT id, state FROM videos WHERE is_sample = 0");
    expect(row?.state).toBe('downloaded');
    videoId = row!.id;
    await log.screenshot('downloaded');

    // The video's page: frames, then generation with a live progress bar.
    await page.getByRole('link', { name: /Open this video/ }).click();
    await page.waitForURL(`${base}/admin/videos/${videoId}`);
    await page.getByRole('button', { name: 'Extract frames' }).click();
    await expect.poll(() => page.locator('#frames-state').textContent(), { timeout: 60_000 }).toMatch(/20 frames/);
    expect(await t.db.first('SELECT frame_count FROM videos WHERE id = ?', [videoId])).toEqual({ frame_count: 20 });
    await log.screenshot('frames');

    // OpenAI's SDK against the fake server, one segment at a time: the first call is refused,
    // so part 1 fails (shown with its error and a retry) and part 2 arrives.
    fake.script = ['refusal'];
    await page.getByLabel('AI provider').selectOption('openai');
    await page.getByLabel('Segment length (seconds)').fill('10');
    await page.getByRole('button', { name: 'Start generating' }).click();
    await expect.poll(() => page.locator('#gen-text').textContent(), { timeout: 60_000 }).toMatch(/Finished with errors/);
    expect(await page.locator('#gen-text').textContent()).toContain('2 of 2 segments, 1 failed');
    expect(Number(await page.locator('#gen-bar').getAttribute('value'))).toBe(2);
    const failed = page.locator('#segments .segment.failed');
    expect(await failed.count()).toBe(1);
    expect(await failed.getAttribute('data-start')).toBe('0');
    expect(await failed.textContent()).toContain('refused');
    expect(await page.locator('#segments .segment.done').count()).toBe(1);
    await log.screenshot('generation-failed-segment');

    await failed.getByRole('button', { name: 'Retry this segment' }).click();
    await expect.poll(() => page.locator('#segments .segment.done').count(), { timeout: 60_000 }).toBe(2);
    await expect.poll(() => page.locator('#gen-text').textContent()).toMatch(/^Finished \(2 of 2 segments\)$/);
    const stored = await t.db.all<{ start_seconds: number; status: string; provider: string }>(
      'SELECT start_seconds, status, provider FROM question_segments WHERE video_id = ? ORDER BY start_seconds',
      [videoId],
    );
    expect(stored).toEqual([
      { start_seconds: 0, status: 'ok', provider: 'openai' },
      { start_seconds: 10, status: 'ok', provider: 'openai' },
    ]);
    expect(fake.requests.filter((r) => r.api === 'openai').length).toBe(3);
    await log.screenshot('generated');

    await page.getByRole('button', { name: 'Submit questions' }).click();
    await page.locator('#submit-result.msg-ok').waitFor();
    await page.locator('#assign-form').getByLabel('Expert').selectOption(expert.id);
    await page.locator('#assign-form').getByRole('button', { name: 'Assign' }).click();
    await expect.poll(() => page.locator('#assigned-list').textContent()).toContain(expert.id);
    expect(await t.db.first('SELECT expert_id FROM video_assignments WHERE video_id = ?', [videoId])).toEqual({ expert_id: expert.id });
    await log.screenshot('submitted-assigned');
    expect(log.errors).toEqual([]);
    await ctx.close();
  });

  it('lets the expert rank, edit, pick the pig wording and finalize', { timeout: 180_000 }, async () => {
    expect(videoId).not.toBe('');
    const { ctx, page, log } = await newPage(1024, 1366);
    await page.goto('/expert');
    await page.getByLabel('Your access code').fill(expert.newCode);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/expert`);
    await page.locator(`[data-video-id="${videoId}"]`).first().waitFor();
    await log.screenshot('expert-home');

    await page.locator(`[data-video-id="${videoId}"]`).getByRole('link', { name: 'Edit questions' }).click();
    await page.waitForURL(`${base}/expert/edit/${videoId}`);
    const first = page.locator('.segment').first();
    await first.locator('.qlist li').first().waitFor();
    expect(await first.locator('.frames img').count()).toBeGreaterThan(0);
    expect(await first.locator('.subtitles').textContent()).toContain('fox');
    await log.screenshot('edit-page');
    // New versions (regenerated questions, companion wordings) come from OpenAI's SDK (fake server).
    await page.getByLabel('AI for new versions').selectOption('openai');

    // Rank: move the second question to the top.
    const secondText = (await first.locator('.qlist li').nth(1).locator('.q-text').textContent())!;
    await first.locator('.qlist li').nth(1).getByRole('button', { name: /^Move up/ }).click();
    await expect.poll(() => first.locator('.qlist li').first().locator('.q-text').textContent()).toBe(secondText);
    // keyboard focus stays in the part that was redrawn
    expect(await page.evaluate(() => document.activeElement?.closest('.segment')?.getAttribute('data-start'))).toBe('0');

    // Edit the top question's wording.
    const newWording = 'What is the little fox looking for?';
    await first.locator('.qlist li').first().getByRole('button', { name: /^Edit/ }).click();
    await first.locator('.q-edit').getByLabel('Question').fill(newWording);
    await first.locator('.q-edit').getByLabel(/Expected answer/).fill('berries');
    await first.locator('.q-edit').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => first.locator('.qlist li').first().locator('.q-text').textContent()).toBe(newWording);
    const top = await t.db.first<{ id: number; question: string; expert_ranking: number }>(
      'SELECT id, question, expert_ranking FROM review_questions WHERE video_id = ? AND start_seconds = 0 AND trashed = 0 ORDER BY expert_ranking LIMIT 1',
      [videoId],
    );
    expect(top).toMatchObject({ question: newWording, expert_ranking: 1 });

    // Companion versions side by side; pick the pig's.
    await first.getByRole('button', { name: /Write companion versions/ }).click();
    const pig = first.locator('.variant[data-companion=pig]');
    await pig.locator('input[type=radio]').first().waitFor();
    const pigOption = pig.locator('label.choice').first();
    pigWording = (await pigOption.textContent())!.trim();
    await pigOption.locator('input').check();
    await expect.poll(async () => (await t.db.first<{ question: string }>(
      `SELECT v.question FROM persona_winners w JOIN persona_variants v ON v.id = w.variant_id
        WHERE w.video_id = ? AND w.start_seconds = 0 AND w.companion = 'pig'`, [videoId]))?.question).toBe(pigWording);
    await log.screenshot('variants');

    // Part 2: trash a question, ask the AI for a new version of another, write an own one, a note.
    const second = page.locator('.segment').nth(1);
    const items = second.locator('.qlist li');
    const before = await items.count();
    await items.nth(before - 1).getByRole('button', { name: /^Trash/ }).click();
    await expect.poll(() => second.locator('.qlist li.trashed').count()).toBe(1);
    // the expert starts writing an own question while the AI writes a new version: the redraw
    // that brings the AI's question keeps the form open with what was typed
    await second.locator('summary', { hasText: 'Write my own question' }).click();
    const own = second.locator('details form');
    await own.getByLabel('Question').fill('Where does the fox take the berries?');
    await items.first().getByRole('button', { name: /^New AI version/ }).click();
    await expect.poll(async () => (await t.db.first<{ n: number }>(
      "SELECT COUNT(*) AS n FROM review_questions WHERE video_id = ? AND start_seconds = 10 AND origin = 'regenerated'", [videoId]))?.n).toBe(1);
    await expect.poll(() => second.locator('.msg').first().textContent()).toContain('The AI wrote a new question');
    expect(await own.getByLabel('Question').inputValue()).toBe('Where does the fox take the berries?');
    await own.getByLabel(/Expected answer/).fill('home');
    await own.getByLabel('Type').selectOption('outcome');
    await own.getByRole('button', { name: 'Add question' }).click();
    await expect.poll(() => second.locator('.qlist').textContent()).toContain('Where does the fox take the berries?');
    await second.getByLabel(/Note for this part/).fill('Pause longer here for younger children.');
    await second.getByRole('button', { name: 'Save note' }).click();
    await expect.poll(async () => (await t.db.first<{ note: string }>('SELECT note FROM expert_annotations WHERE video_id = ? AND start_seconds = 10', [videoId]))?.note)
      .toBe('Pause longer here for younger children.');
    expect(await t.db.all('SELECT question, origin, trashed FROM review_questions WHERE video_id = ? AND start_seconds = 10 AND (origin = ? OR trashed = 1) ORDER BY id', [videoId, 'expert']))
      .toEqual([expect.objectContaining({ trashed: 1 }), { question: 'Where does the fox take the berries?', origin: 'expert', trashed: 0 }]);
    await log.screenshot('edit-part-2');

    await page.getByRole('button', { name: 'Finalize all parts' }).click();
    await expect.poll(() => page.locator('#edit-summary').textContent()).toMatch(/2 of 2 parts finalized/);
    await log.screenshot('finalized');

    // Preview: the pig's wording is what the child will hear; the player link carries the choice.
    await page.getByRole('link', { name: 'Preview as a child' }).click();
    await page.waitForURL(`${base}/expert/preview/${videoId}`);
    await page.getByLabel('Pig').check();
    await page.locator('input[name=mode][value=strict]').check();
    await expect.poll(() => page.locator('#served').textContent()).toContain(pigWording);
    expect(await page.getByRole('link', { name: 'Play as a child' }).getAttribute('href')).toBe(`/kids/play/${videoId}?preview=1&companion=pig&mode=strict`);
    await log.screenshot('preview');

    // The expert sees what a pig child will be served.
    const asExpert = await page.request.get(`/api/final-questions/${videoId}?companion=pig`);
    expect((await asExpert.json()).segments[0]).toMatchObject({ segment_range_start: 0, question: pigWording, answer: 'berries', expert_ranking: 1 });

    // Families: set the code of the expert's own family on the parents page.
    await page.getByRole('link', { name: 'Families', exact: true }).click();
    const family = page.locator('section[data-parent-id]').first();
    await family.getByLabel('New family code').fill(familyCode);
    await family.getByRole('button', { name: 'Set code' }).click();
    await family.locator('.form-status.msg-ok').waitFor();
    await family.getByRole('button', { name: 'Show' }).click();
    expect(await family.locator('code').textContent()).toBe(familyCode);
    expect(await family.textContent()).toContain('Leo');
    await log.screenshot('parents');
    expect(log.errors).toEqual([]);
    await ctx.close();
  });

  it("serves a child the pig's wording and shows the child's report", { timeout: 120_000 }, async () => {
    // A tablet logs in with the family code, picks Leo, and gets the pig's wording.
    const tablet = await browser.newContext({ baseURL: base });
    const login = await tablet.request.post('/api/learners/parents/login', { data: { access_code: familyCode } });
    expect(login.status()).toBe(200);
    const childId = (await t.db.first<{ id: string }>('SELECT id FROM children WHERE expert_id = ?', [expert.id]))!.id;
    expect((await tablet.request.post('/api/learners/session/child', { data: { child_id: childId } })).status()).toBe(200);
    const served = await tablet.request.get(`/api/final-questions/${videoId}?companion=pig`);
    expect(served.status()).toBe(200);
    const body = await served.json();
    expect(body.success).toBe(true);
    expect(body.segments[0]).toMatchObject({ segment_range_start: 0, question: pigWording, answer: 'berries', companion: 'pig' });

    // Two sessions played, one answer missed in the child's own words.
    for (const [percentage, said, status] of [[50, 'a ball', 'wrong'], [100, 'berries', 'correct']] as const) {
      const saved = await tablet.request.post('/api/save-quiz-score', {
        data: {
          child_id: childId, video_id: videoId, percentage, total_retries: 1, watch_minutes: 0.4, interaction_mode: 'strict',
          details: [{ question: body.segments[0].question, expected: 'berries', user: said, status, question_type: body.segments[0].question_type, segment_range_start: 0, segment_range_end: 10 }],
        },
      });
      expect(saved.status(), await saved.text()).toBe(200);
    }
    await tablet.close();

    const { ctx, page, log } = await newPage(1024, 1366);
    await page.goto('/expert');
    await page.getByLabel('Your access code').fill(expert.newCode);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/expert`);
    await page.getByRole('link', { name: 'Reports' }).click();
    const row = page.locator(`tr[data-child-id="${childId}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('75%');
    await row.getByRole('link', { name: /Report for Leo/ }).click();
    await page.waitForURL(`${base}/expert/reports/${childId}`);
    await page.locator('#missed li').first().waitFor();
    expect(await page.locator('#charts svg').count()).toBe(4);
    expect(await page.locator('#charts svg title').first().textContent()).toContain('Score of each session');
    const missed = await page.locator('#missed').textContent();
    expect(missed).toContain('a ball');
    expect(missed).toContain('berries');
    expect(await page.locator('#stats').textContent()).toContain('75%');
    await log.screenshot('report');

    // The expert changes their own code (typed twice).
    await page.getByRole('link', { name: 'My code' }).click();
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => page.locator('#current-code').textContent()).toBe(expert.newCode);
    await page.getByLabel('New code', { exact: true }).fill('rivera-2026');
    await page.getByLabel('New code again').fill('rivera-2026');
    await page.getByRole('button', { name: 'Change code' }).click();
    await page.locator('#code-form .form-status.msg-ok').waitFor();
    await expect.poll(() => page.locator('#current-code').textContent()).toBe('rivera-2026');
    expect(log.errors).toEqual([]);
    await ctx.close();

    // The admin's full report of the child lists every session.
    const admin = await newPage();
    await admin.page.goto(`/admin/reports/${childId}`);
    await admin.page.getByLabel('Admin password').fill(TEST_ADMIN_PASSWORD);
    await admin.page.getByRole('button', { name: 'Log in' }).click();
    await admin.page.waitForURL(`${base}/admin/reports/${childId}`);
    await expect.poll(() => admin.page.locator('#attempts tr').count()).toBe(2);
    expect(await admin.page.locator('#missed').textContent()).toContain('a ball');
    await admin.log.screenshot('admin-report');
    expect(admin.log.errors).toEqual([]);
    await admin.ctx.close();
  });

  it("moves a deleted expert's children to the expert the admin picks, losing none", { timeout: 120_000 }, async () => {
    const { ctx, page, log } = await newPage(1024, 768);
    await page.goto('/admin/experts');
    await page.getByLabel('Admin password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/admin/experts`);
    for (const [id, name] of [['leaving-expert', 'Leaving'], ['heir-expert', 'Heir']]) {
      const made = await page.request.post('/api/admin/experts', { data: { expert_id: id, display_name: name, password: `${id}-code-1` } });
      expect(made.status()).toBe(200);
    }
    const child = await page.request.post('/api/admin/children', { data: { expert_id: 'leaving-expert', first_name: 'Ada' } });
    expect(child.status()).toBe(200);
    const adaId = (await t.db.first<{ id: string }>("SELECT id FROM children WHERE expert_id = 'leaving-expert'"))!.id;

    await page.reload();
    const row = page.locator('tr[data-expert-id="leaving-expert"]');
    await row.getByRole('button', { name: /^Delete/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Leaving' });
    await dialog.waitFor();
    await log.screenshot('delete-expert-move');
    await dialog.getByLabel('Move them to').selectOption('heir-expert');
    await dialog.getByRole('button', { name: 'Move and delete' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await t.db.first('SELECT 1 FROM experts WHERE id = ?', ['leaving-expert'])).toBeUndefined();
    expect(await t.db.first('SELECT expert_id, first_name FROM children WHERE id = ?', [adaId])).toEqual({ expert_id: 'heir-expert', first_name: 'Ada' });
    expect(log.errors).toEqual([]);
    await ctx.close();
  });
});
