import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { createFamily, loginExpert, startTestApp, type TestApp, type TestFamily } from '../helpers/app.js';
import { COUNT_PY, createClass, createProblem, enrol } from '../code-quiz/factories.js';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildClient } from '../../scripts/build-client.mjs';

const ARTIFACTS = path.resolve('test-artifacts/code');
/** how long to wait for the page to show a result (the machine is shared: runs can queue) */
const WAIT = { timeout: 30_000, interval: 100 };
let t: TestApp;
let base: string;
let browser: Browser;
let fam: TestFamily;
let classId: number;
let problemId: number;

beforeAll(async () => {
  await buildClient();
  t = await startTestApp({ CODE_CALLS_PER_MINUTE: '0' });
  base = await t.listen();
  fam = await createFamily(t);
  const expert = await loginExpert(t.agent(), fam.expert.code);
  classId = await createClass(expert, 'Robot club');
  await enrol(expert, classId, fam.child.child_id);
  problemId = await createProblem(expert, classId, COUNT_PY);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the code quiz in a browser (no provider key)', () => {
  it('a child writes part of a solution, asks for help, picks, reads the explanation, runs and passes; the teacher sees it', async () => {
    const errors: string[] = [];
    const kid = await browser.newContext({ viewport: { width: 1024, height: 1366 }, hasTouch: true });
    const page = await kid.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    // the tablet logs in with the family code and picks the child (the keypad is covered by the kids tests)
    expect((await kid.request.post(`${base}/api/learners/parents/login`, { data: { access_code: fam.parentCode } })).status()).toBe(200);
    expect((await kid.request.post(`${base}/api/learners/session/child`, { data: { child_id: fam.child.child_id } })).status()).toBe(200);

    await page.goto(`${base}/kids/code`);
    await page.getByRole('link', { name: /Count up/ }).click();
    await page.waitForSelector('body[data-ready="1"]');
    expect(await page.textContent('#prompt')).toBe(COUNT_PY.prompt);

    // the starter code is in the editor; the child adds the loop line and presses Enter
    await page.click('.cm-content');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('for i in range(1, n + 1):');
    await page.keyboard.press('Enter');

    await page.getByRole('button', { name: 'Help me' }).click();
    const choices = page.locator('#choices button');
    await expect.poll(() => choices.count(), WAIT).toBe(3);
    const texts = await choices.allTextContents();
    expect(texts).toContain('print(i)');
    await page.getByRole('button', { name: 'print(i)', exact: true }).click();
    await expect.poll(() => page.textContent('#hint-feedback'), WAIT).toContain('Yes!');
    expect(await page.isVisible('#explanation')).toBe(true);
    expect((await page.textContent('#explanation'))!.length).toBeGreaterThan(10);

    await page.getByRole('button', { name: 'Put the right line in my code' }).click();
    const code = await page.evaluate(() => (window as unknown as { codeEditor: { state: { doc: { toString(): string } } } }).codeEditor.state.doc.toString());
    expect(code).toBe('n = int(input())\nfor i in range(1, n + 1):\n    print(i)');

    await page.getByRole('button', { name: 'Run' }).click();
    await expect.poll(() => page.textContent('#results-title'), WAIT).toBe('All 3 tests passed! Great job!');
    expect(await page.locator('#tests li').allTextContents()).toEqual([
      expect.stringContaining('Test 1: passed'),
      expect.stringContaining('Test 2: passed'),
      expect.stringContaining('Secret test 3: passed'),
    ]);
    expect(errors).toEqual([]);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'child-code-page.png'), fullPage: true });

    // the database holds the hint, the pick and the passing run
    expect(await t.db.first('SELECT suggestion, choice_correct FROM suggestion_events WHERE child_id = ?', [fam.child.child_id])).toEqual({ suggestion: '    print(i)', choice_correct: 1 });
    expect(await t.db.first('SELECT status, passed, total FROM runs WHERE child_id = ?', [fam.child.child_id])).toEqual({ status: 'passed', passed: 3, total: 3 });

    // the teacher's class page shows the event and the run
    const teacher = await browser.newContext();
    const tpage = await teacher.newPage();
    tpage.on('pageerror', (e) => errors.push(e.message));
    expect((await teacher.request.post(`${base}/api/expert/login`, { data: { access_code: fam.expert.code } })).status()).toBe(200);
    await tpage.goto(`${base}/expert/code/classes/${classId}`);
    const events = tpage.locator('#events tbody tr');
    await expect.poll(() => events.count(), WAIT).toBe(1);
    expect(await events.first().textContent()).toContain('print(i)');
    expect(await events.first().textContent()).toContain(fam.child.first_name);
    expect(await events.first().textContent()).toContain('right');
    expect(await tpage.locator('#runs tbody tr').first().textContent()).toContain('3 of 3');
    expect(await tpage.locator('#problems').textContent()).toContain('Count up');
    expect(errors).toEqual([]);
    await tpage.screenshot({ path: path.join(ARTIFACTS, 'teacher-class-page.png'), fullPage: true });
    await kid.close();
    await teacher.close();
  });
});

describe("the teacher's code pages in a browser", () => {
  it('creates a class, enrols a child, and writes a problem: a failing solution is refused naming the test, a fixed one is saved', async () => {
    const errors: string[] = [];
    const teacher = await browser.newContext();
    const page = await teacher.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => void d.accept());
    expect((await teacher.request.post(`${base}/api/expert/login`, { data: { access_code: fam.expert.code } })).status()).toBe(200);

    await page.goto(`${base}/expert/code`);
    await page.fill('#class-name', 'Friday coders');
    await page.getByRole('button', { name: 'Create class' }).click();
    const card = page.locator('article.class-card', { hasText: 'Friday coders' });
    await expect.poll(() => card.count(), WAIT).toBe(1);
    await card.getByRole('button', { name: /Add child/ }).click();
    await expect.poll(() => card.locator('.enrolled li').count(), WAIT).toBe(1);
    const created = (await t.db.first<{ id: number }>("SELECT id FROM classes WHERE name = 'Friday coders'"))!;
    expect(await t.db.all('SELECT child_id FROM class_enrolments WHERE class_id = ?', [created.id])).toEqual([{ child_id: fam.child.child_id }]);

    await card.getByRole('link', { name: 'Friday coders' }).click();
    await page.getByRole('button', { name: 'New problem' }).click();
    await page.fill('#p-title', 'Double it');
    await page.fill('#p-prompt', 'Read a number and print it twice as big.');
    await page.fill('#p-solution', 'n = int(input())\nprint(n + 2)\n');
    await page.locator('#test-rows .t-stdin').first().fill('3');
    await page.locator('#test-rows .t-expected').first().fill('6');
    await page.getByRole('button', { name: 'Add a test' }).click();
    await page.locator('#test-rows .t-stdin').nth(1).fill('2');
    await page.locator('#test-rows .t-expected').nth(1).fill('4');
    await page.getByRole('button', { name: 'Save problem' }).click();
    // 2 + 2 = 4 passes test 2 but 3 + 2 = 5 fails test 1
    await expect.poll(() => page.textContent('#problem-status'), WAIT).toContain('fails test 1');
    expect(await t.db.all('SELECT * FROM code_problems WHERE class_id = ?', [created.id])).toEqual([]);

    await page.fill('#p-solution', 'n = int(input())\nprint(n * 2)\n');
    await page.getByRole('button', { name: 'Save problem' }).click();
    await expect.poll(() => page.locator('#problems tbody tr').count(), WAIT).toBe(1);
    expect(await page.textContent('#problems')).toContain('Double it');
    expect(await t.db.first('SELECT title, solution FROM code_problems WHERE class_id = ?', [created.id])).toEqual({ title: 'Double it', solution: 'n = int(input())\nprint(n * 2)\n' });
    expect(errors).toEqual([]);
    await teacher.close();
  });
});
