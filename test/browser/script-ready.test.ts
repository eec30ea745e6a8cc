import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { createFamily, loginExpert, startTestApp, type TestApp, type TestFamily } from '../helpers/app.js';
import { createClass } from '../code-quiz/factories.js';

// Every page's buttons come from the server `disabled data-needs-script` and are enabled once the
// page's module scripts have run. On a slow network a press before that did nothing (a CI run
// clicked "New problem" before expert-class.js had wired it, and the editor never opened), and the
// Enter key in a form sent it natively as a GET: the family code in the URL and the browser history.

const VIEWS = path.resolve('views');
const WAIT = { timeout: 30_000, interval: 50 };

function ejsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? ejsFiles(path.join(dir, e.name)) : e.name.endsWith('.ejs') ? [path.join(dir, e.name)] : []));
}

describe('buttons in the page templates', () => {
  it('are all sent disabled until the page script enables them', () => {
    const unmarked: string[] = [];
    let buttons = 0;
    for (const file of ejsFiles(VIEWS)) {
      for (const tag of fs.readFileSync(file, 'utf8').match(/<button\b[^>]*>/g) ?? []) {
        buttons += 1;
        if (!/\sdisabled data-needs-script\b/.test(tag)) unmarked.push(`${path.relative(VIEWS, file)}: ${tag}`);
      }
    }
    expect(buttons).toBeGreaterThan(30);
    expect(unmarked).toEqual([]);
  });
});

let t: TestApp;
let base: string;
let browser: Browser;
let fam: TestFamily;
let classId: number;

beforeAll(async () => {
  t = await startTestApp();
  base = await t.listen();
  fam = await createFamily(t);
  classId = await createClass(await loginExpert(t.agent(), fam.expert.code), 'Slow club');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Holds every request for the page's script (by file name) until `release` is called. */
async function holdScript(page: Page, file: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route((url) => url.pathname.endsWith(`/${file}`), async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

describe('a page whose script arrives late', () => {
  it('keeps "New problem" disabled until expert-class.js has wired it, then the press opens the editor', async () => {
    const ctx = await browser.newContext();
    const errors: string[] = [];
    try {
      expect((await ctx.request.post(`${base}/api/expert/login`, { data: { access_code: fam.expert.code } })).status()).toBe(200);
      const page = await ctx.newPage();
      page.on('pageerror', (e) => errors.push(e.message));
      const release = await holdScript(page, 'expert-class.js');
      await page.goto(`${base}/expert/code/classes/${classId}`, { waitUntil: 'commit' });
      const button = page.locator('#new-problem');
      await button.waitFor({ state: 'attached' });
      expect(await button.isDisabled()).toBe(true);
      // the press is queued by Playwright until the button is enabled, as a child's tap would be refused
      const press = button.click();
      await new Promise((r) => setTimeout(r, 300));
      expect(await page.locator('#editor-card').isHidden()).toBe(true);
      release();
      await press;
      await expect.poll(() => page.locator('#p-title').isVisible(), WAIT).toBe(true);
      expect(await page.locator('[data-needs-script]').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it('does not send the family code in the URL when Enter is pressed before the kids login script ran', async () => {
    const ctx = await browser.newContext({ viewport: { width: 768, height: 1024 }, hasTouch: true });
    try {
      const page = await ctx.newPage();
      const requested: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      const release = await holdScript(page, 'login.js');
      await page.goto(`${base}/kids`, { waitUntil: 'commit' });
      await page.locator('#code').waitFor({ state: 'attached' });
      await page.locator('#code').fill(fam.parentCode);
      await page.locator('#code').press('Enter');
      await new Promise((r) => setTimeout(r, 300));
      release();
      await expect.poll(() => page.locator('[data-needs-script]').count(), WAIT).toBe(0);
      expect(requested.filter((u) => u.includes(fam.parentCode))).toEqual([]);
      expect(page.url()).not.toContain(fam.parentCode);
      // and once the script is in, the same key logs in
      await page.locator('#code').press('Enter');
      await page.waitForURL((u) => !u.pathname.endsWith('/kids') && !u.pathname.endsWith('/kids/'), WAIT);
      expect(page.url()).not.toContain(fam.parentCode);
    } finally {
      await ctx.close();
    }
  });
});
