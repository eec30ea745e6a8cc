import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm run bench:api` end to end, briefly (1 s per route, 4 connections), so the harness cannot rot
 * unnoticed: its three servers (the app, the bare handler on a stock server and on the service's)
 * start in their own workers, every request is answered without error, and it prints each route's
 * figures and both ratios. Nothing is timed here: the figures are printed, never asserted.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('bench:api', () => {
  it('runs every target without a failed request and prints both ratios', async () => {
    const out = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'bench/api.ts', '--seconds=1', '--concurrency=4'], {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (c: Buffer) => (text += c.toString()));
      child.stderr.on('data', (c: Buffer) => (text += c.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, text }));
    });
    expect(out.text).not.toContain('FAIL');
    expect(out.code, out.text).toBe(0);
    for (const name of [
      'bare GET (baseline, stock server)',
      "bare GET (the service's server)",
      'GET /api/final-questions/',
      'bare POST (baseline, stock server)',
      "bare POST (the service's server)",
      'POST /api/check_answer',
    ]) {
      expect(out.text).toMatch(new RegExp(`${name.replace(/[()/]/g, '\\$&')}.*req/s.*p99.*errors 0`));
    }
    expect(out.text).toMatch(
      /ratios against the bare handler on a stock server[^\n]*\n\s+final-questions: throughput \d+\.\d\dx[^\n]*\n\s+check_answer:\s+throughput \d+\.\d\dx/,
    );
    expect(out.text).toMatch(/ratios against the bare handler on the service's own server[^\n]*\n\s+final-questions: throughput \d+\.\d\dx/);
    expect(out.text).toMatch(/kids pages transferred[^\n]*\n\s+uncompressed [\d.]+ kB, gzip [\d.]+ kB, brotli [\d.]+ kB/);
    // the servers run the built code, as npm start does (not the sources through tsx)
    expect(out.text).toContain('servers: built code (dist/, as npm start runs it), NODE_ENV=production');
  }, 240_000);
});
