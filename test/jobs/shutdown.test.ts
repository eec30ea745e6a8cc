import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAdmin, startTestApp, TEST_ADMIN_PASSWORD } from '../helpers/app.js';
import { makeClip } from '../fixtures/media.js';
import { KILL_GRACE_MS, groupAlive } from '../../src/pipeline/process-runner.js';
import { CANCEL_MESSAGES } from '../../src/jobs/jobs.types.js';
import { processesMentioning, startSlowServer, until, type SlowServer } from './slow-server.js';

/**
 * SIGTERM to the real server process (src/server.ts through tsx, as `npm run serve` runs it) on a
 * temp DATA_DIR while two downloads from a slow local host run with the real yt-dlp: one queued
 * with Prefer: respond-async, one held open by its request. The server must answer the held
 * request, exit 0 within the drain time plus the kill grace, leave no process and no partial
 * file, keep SQLite intact, and show both jobs cancelled after a restart.
 */
const REPO = path.resolve(import.meta.dirname, '../..');
const DRAIN_MS = 1500;
let root: string;
let dataDir: string;
let slow: SlowServer;
let server: ChildProcess | undefined;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-shutdown-'));
  dataDir = path.join(root, 'data');
  makeClip(path.join(root, 'slowa.mp4'), { seconds: 30, width: 320, height: 240, fps: 25 });
  fs.copyFileSync(path.join(root, 'slowa.mp4'), path.join(root, 'slowb.mp4'));
  slow = await startSlowServer(
    { 'slowa.mp4': path.join(root, 'slowa.mp4'), 'slowb.mp4': path.join(root, 'slowb.mp4') },
    { chunkBytes: 16 * 1024, intervalMs: 250 },
  );
}, 60_000);

afterAll(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await slow?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('SIGTERM during downloads', () => {
  it('drains, cancels the jobs, kills yt-dlp, removes partial files, keeps SQLite intact and exits 0', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: REPO,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        DEMO_SEED: 'false',
        SAMPLE_IMPORT: 'false',
        LOG_LEVEL: 'warn',
        DOWNLOAD_EXTRA_HOSTS: '127.0.0.1',
        DOWNLOAD_AUTH_MODE: 'none',
        JOB_CONCURRENCY: '2',
        SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout!.on('data', (d) => (output += d));
    server.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => server!.on('exit', (code, signal) => resolve({ code, signal })));

    await until(
      async () =>
        (await fetch(`${base}/api/openapi.json`)
          .then((r) => r.ok)
          .catch(() => false)) || undefined,
      200,
    );
    const login = await fetch(`${base}/api/admin/verify-access`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: TEST_ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const form = (url: string) => new URLSearchParams({ url }).toString();
    const headers = { cookie, 'content-type': 'application/x-www-form-urlencoded' };

    const queued = await fetch(`${base}/api/download`, {
      method: 'POST',
      headers: { ...headers, prefer: 'respond-async' },
      body: form(`${slow.url}/slowa.mp4`),
    });
    expect(queued.status).toBe(202);
    const asyncJob = ((await queued.json()) as { job_id: string }).job_id;
    // this request stays open while its job runs
    const held = fetch(`${base}/api/download`, { method: 'POST', headers, body: form(`${slow.url}/slowb.mp4`) });

    const jobs = async () =>
      ((await (await fetch(`${base}/api/admin/jobs`, { headers: { cookie } })).json()) as { jobs: { job_id: string; state: string; progress: number }[] }).jobs;
    await until(async () => {
      const list = await jobs();
      return list.length === 2 && list.every((j) => j.state === 'running' && j.progress > 0.06) ? list : undefined;
    }, 200);
    const heldJob = (await jobs()).find((j) => j.job_id !== asyncJob)!.job_id;
    const ytdlp = processesMentioning(dataDir).filter((p) => p.cmd.includes('yt-dlp'));
    expect(ytdlp.length).toBeGreaterThanOrEqual(2);
    const incoming = () => fs.readdirSync(path.join(dataDir, 'videos')).filter((n) => n.startsWith('.incoming'));
    expect(incoming().length).toBe(2);

    const sentAt = Date.now();
    server.kill('SIGTERM');
    const answer = await held;
    const exit = await exited;
    const tookMs = Date.now() - sentAt;

    // the held request got an answer: the contract's download body, cancelled because of the shutdown
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({ success: false, error_code: 'cancelled', message: CANCEL_MESSAGES.shutdown });
    expect(exit, output).toEqual({ code: 0, signal: null });
    // drain time + the kill grace of the process groups, plus a margin for a loaded 2-core machine
    expect(tookMs).toBeLessThan(DRAIN_MS + KILL_GRACE_MS + 3000);
    // no process of the server's is left: yt-dlp's groups are gone
    for (const p of ytdlp) expect(groupAlive(p.pgid), p.cmd).toBe(false);
    expect(processesMentioning(dataDir)).toEqual([]);
    // no partial file, no half-made video row, SQLite intact
    expect(incoming()).toEqual([]);
    const db = new Database(path.join(dataDir, 'app.sqlite'));
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare(`SELECT count(*) AS n FROM videos WHERE state = 'downloading'`).get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }

    // after a restart both jobs are cancelled (not failed as a crash would leave them)
    const again = await startTestApp({}, dataDir);
    try {
      const admin = await loginAdmin(again.agent());
      for (const id of [asyncJob, heldJob]) {
        const res = await admin.get(`/api/admin/jobs/${id}`);
        expect(res.status).toBe(200);
        expect(res.body.job).toMatchObject({ state: 'cancelled', error: CANCEL_MESSAGES.shutdown, finished_at: expect.any(String) });
        expect(res.body.job.progress).toBeGreaterThan(0.06);
      }
    } finally {
      // the data dir was given, so close() keeps it (afterAll removes it)
      await again.close();
    }
  }, 120_000);
});
