import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The built service as `npm start` runs it: build dist/, then `node dist/server.js` with
 * NODE_ENV=production on a fresh data folder; it must listen, answer pages and the API,
 * keep stdout for JSON log lines only, and stop with exit code 0 on SIGTERM.
 */
describe('built server (dist/)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-built-'));
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null && child.pid) process.kill(child.pid, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('builds, starts from dist/ in production mode, answers, and stops cleanly', async () => {
    const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    expect(fs.existsSync(path.join(ROOT, 'dist', 'server.js'))).toBe(true);
    expect(fs.existsSync(path.join(ROOT, 'dist', 'db', 'migrations', '001-accounts.sql'))).toBe(true);
    // --if-stale (bench:api): nothing newer than the build, so dist/ is left as it is
    const again = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain('dist/ is up to date');

    const env = { PATH: process.env.PATH ?? '', NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'built-admin-pw', LOG_LEVEL: 'info' };
    const proc = spawn(process.execPath, [path.join(ROOT, 'dist', 'server.js')], { cwd: dataDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let stdout = '';
    let stderr = '';
    proc.stderr.on('data', (d) => (stderr += d));
    const listening = await new Promise<{ port: number; env: string }>((resolve, reject) => {
      proc.on('exit', (code) => reject(new Error(`exited with ${code} before listening: ${stderr}`)));
      proc.stdout.on('data', (d) => {
        stdout += d;
        for (const line of stdout.split('\n')) {
          if (line.includes('"listening"')) resolve(JSON.parse(line) as { port: number; env: string });
        }
      });
    });
    expect(listening.env).toBe('production');
    const base = `http://127.0.0.1:${listening.port}`;

    const health = await fetch(`${base}/health`);
    expect(await health.json()).toEqual({ success: true, status: 'ok' });
    const kids = await fetch(`${base}/kids`);
    expect(kids.status).toBe(200);
    const html = await kids.text();
    expect(html).toContain('<html');
    // views/ and public/ resolved from dist/: the page names its versioned script, which is served
    const script = /src="(\/static\/[0-9a-f]{12}\/kids\/[a-z-]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const js = await fetch(`${base}${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toContain('immutable');
    // files read beside their modules at run time were copied into dist/
    expect(fs.existsSync(path.join(ROOT, 'dist', 'speech', 'vocabulary', 'child-words.txt'))).toBe(true);
    const me = await fetch(`${base}/api/me`);
    expect(me.status).toBe(200);
    // the bundled sample was imported from sample/ (resolved relative to dist/sample/)
    const login = await fetch(`${base}/api/admin/verify-access`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: 'built-admin-pw' }) });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const videos = (await (await fetch(`${base}/api/kids_videos`, { headers: { cookie } })).json()) as { videos?: { video_id: string }[] };
    expect(JSON.stringify(videos)).toContain('sample-red-ball');

    const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    proc.kill('SIGTERM');
    expect(await exit).toBe(0);

    // stdout is for log collectors: JSON lines only; the banners and the demo codes went to stderr
    const lines = stdout.split('\n').filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(stdout).not.toContain('Demo family');
    expect(stderr).toContain('Demo family created');
    expect(stderr).toContain('Kids video quiz is running');
  });
});
