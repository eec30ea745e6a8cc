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
    expect(t.db.first('SELECT suggestion, choice_correct FROM suggestion_events WHERE child_id = ?', [fam.child.child_id])).toEqual({ suggestion: '    print(i)', choice_correct: 1 });
    expect(t.db.first('SELECT status, passed, total FROM runs WHERE child_id = ?', [fam.child.child_id])).toEqual({ status: 'passed', passed: 3, total: 3 });

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
