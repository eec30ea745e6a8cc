import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_ADMIN_PASSWORD, type TestApp } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';
import { makeClip } from '../fixtures/media.js';
import { addVideo } from '../fixtures/videos.js';
import { processesMentioning, startSlowServer, until, type SlowServer } from './slow-server.js';

/**
 * The admin pages in Chromium: a download from a slow host on 127.0.0.1 shows a real progress
 * bar fed by /ws/jobs and is cancelled with its Cancel button; frame extraction on the video
 * page shows its bar and ends with the frame count.
 */
let root: string;
let slow: SlowServer;
let t: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-jobs-ui-'));
  makeClip(path.join(root, 'slowui.mp4'), { seconds: 30, width: 320, height: 240, fps: 25 });
  makeClip(path.join(root, 'frames.mp4'), { seconds: 5 });
  slow = await startSlowServer({ 'slowui.mp4': path.join(root, 'slowui.mp4') }, { chunkBytes: 16 * 1024, intervalMs: 250 });
  t = await startTestApp({ DOWNLOAD_EXTRA_HOSTS: '127.0.0.1', DOWNLOAD_AUTH_MODE: 'none' });
  base = await t.listen();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await slow?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('job progress on the admin pages', () => {
  it('shows a download progress bar, cancels it, and shows frame extraction progress', { timeout: 180_000 }, async () => {
    const ctx = await browser.newContext({ baseURL: base });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/admin');
    await page.getByLabel('Admin password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/admin`);

    await page.getByLabel('Video link').fill(`${slow.url}/slowui.mp4`);
    await page.getByRole('button', { name: 'Download' }).click();
    const panel = page.locator('#download-result [data-testid=job-panel]');
    await panel.waitFor();
    // the bar moves with yt-dlp's progress (> 5 %: past the probe)
    await expect.poll(async () => Number(await panel.locator('progress').getAttribute('value')), { timeout: 60_000 }).toBeGreaterThan(5);
    expect(await panel.locator('.progress-text').textContent()).toMatch(/^Downloading: \d+ %$/);
    const jobId = (await panel.getAttribute('data-job-id'))!;
    expect(await t.db.first('SELECT state FROM jobs WHERE id = ?', [jobId])).toEqual({ state: 'running' });

    await panel.getByRole('button', { name: 'Cancel' }).click();
    const result = page.locator('[data-testid=download-result]');
    await result.waitFor({ timeout: 30_000 });
    expect(await result.textContent()).toContain('cancelled');
    expect(await t.db.first('SELECT state, error FROM jobs WHERE id = ?', [jobId])).toEqual({ state: 'cancelled', error: 'Cancelled by the admin.' });
    expect(processesMentioning(t.dataDir).filter((p) => p.cmd.includes('yt-dlp'))).toEqual([]);

    await addVideo(t.db, t.dataDir, { id: 'uiframes', videoFile: path.join(root, 'frames.mp4'), duration: 5 });
    await page.goto('/admin/videos/uiframes');
    await page.getByRole('button', { name: 'Extract frames' }).click();
    await expect.poll(() => page.locator('#frames-state').textContent(), { timeout: 60_000 }).toMatch(/5 frames/);
    expect(await page.locator('#frames-result').textContent()).toContain('Extracted 5 frames');
    const framesJob = await until(() =>
      t.db.first<{ state: string; progress: number }>(`SELECT state, progress FROM jobs WHERE kind = 'frames' AND video_id = 'uiframes'`),
    );
    expect(framesJob).toEqual({ state: 'succeeded', progress: 1 });
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
