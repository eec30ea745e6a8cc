import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';

export const ARTIFACTS = path.resolve('test-artifacts/staff');

export async function launchBrowser(): Promise<Browser> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return launchChromium();
}

/**
 * Collects what the page reports (uncaught errors, failed requests) so a test can assert that a
 * step ran clean, and names screenshots in step order.
 */
export class PageLog {
  readonly errors: string[] = [];
  /** one numbering for the whole run, so the files sort in the order the steps happened */
  private static shot = 0;

  constructor(readonly page: Page) {
    page.on('pageerror', (e) => this.errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('Failed to load resource')) this.errors.push(`console: ${m.text()}`);
    });
  }

  async screenshot(name: string): Promise<string> {
    PageLog.shot += 1;
    const file = path.join(ARTIFACTS, `${String(PageLog.shot).padStart(2, '0')}-${name}.png`);
    await this.page.screenshot({ path: file, fullPage: true });
    return file;
  }
}
