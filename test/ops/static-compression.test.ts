import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { folderDigest } from '../../src/http/static-files.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

/** a raw response over a real socket, without any client-side decompression, so the encoding is checked for real */
const raw = async (url: string, encoding = 'identity', headers: Record<string, string> = {}) => {
  const base = await t.listen();
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`${base}${url}`, { headers: { 'accept-encoding': encoding, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
};

describe('versioned static files', () => {
  it('serves public/ under /static/<content hash>/ as immutable for a year', async () => {
    const base = t.app.locals.staticBase as string;
    expect(base).toMatch(/^\/static\/[0-9a-f]{12}$/);
    const res = await raw(`${base}/kids/common.js`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.toString()).toBe(fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'public', 'kids', 'common.js'), 'utf8'));
  });

  it('pages and their scripts use the versioned prefix', async () => {
    const base = t.app.locals.staticBase as string;
    for (const page of ['/kids', '/admin', '/expert', '/']) {
      const res = await t.agent().get(page);
      expect(res.status, page).toBe(200);
      expect(res.text, page).toContain(`${base}/`);
      expect(res.text, page).not.toMatch(/["(]\/static\/(kids|staff)\//);
    }
    const common = await raw(`${base}/kids/common.js`);
    expect(common.body.toString()).toContain("new URL('./icons.svg', import.meta.url)");
  });

  it('serves static files without reading the session', async () => {
    const agent = t.agent();
    const login = await agent.post('/api/admin/verify-access').send({ password: 'test-admin-password' });
    expect(login.status).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    // record the SQL the app runs while serving (the real database, only observed)
    const seen: string[] = [];
    const first = t.db.first.bind(t.db);
    t.db.first = ((sql: string, params?: never) => {
      seen.push(sql);
      return first(sql, params);
    }) as typeof t.db.first;
    try {
      const file = await raw(`${t.app.locals.staticBase}/kids/kids.css`, 'identity', { cookie });
      expect(file.status).toBe(200);
      expect(file.headers['set-cookie']).toBeUndefined();
      expect(seen.filter((q) => q.includes('FROM sessions'))).toEqual([]);
      const api = await raw('/api/me', 'identity', { cookie });
      expect(JSON.parse(api.body.toString())).toMatchObject({ role: 'admin' });
      expect(seen.filter((q) => q.includes('FROM sessions'))).toHaveLength(1); // the spy does see session reads
    } finally {
      t.db.first = first;
    }
  });

  it('keeps plain /static/ working, revalidated on every use', async () => {
    const res = await raw('/static/kids/common.js');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=0');
    expect(res.headers.etag).toBeTruthy();
    const again = await raw('/static/kids/common.js', 'identity', { 'if-none-match': res.headers.etag! });
    expect(again.status).toBe(304);
  });

  it('a change to any file changes the version', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-public-'));
    try {
      fs.mkdirSync(path.join(dir, 'kids'));
      fs.writeFileSync(path.join(dir, 'kids', 'a.js'), 'export const a = 1;\n');
      const first = folderDigest(dir);
      expect(folderDigest(dir)).toBe(first);
      fs.writeFileSync(path.join(dir, 'kids', 'a.js'), 'export const a = 2;\n');
      const second = folderDigest(dir);
      expect(second).not.toBe(first);
      fs.renameSync(path.join(dir, 'kids', 'a.js'), path.join(dir, 'kids', 'b.js'));
      expect(folderDigest(dir)).not.toBe(second);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('compression', () => {
  it('gzips or brotli-compresses static files, pages and JSON as the client asks', async () => {
    const base = t.app.locals.staticBase as string;
    const plain = await raw(`${base}/kids/kids.css`);
    const gz = await raw(`${base}/kids/kids.css`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.body.length).toBeLessThan(plain.body.length / 2);

    const br = await raw('/api/openapi.json', 'br, gzip');
    expect(br.headers['content-encoding']).toBe('br');
    const doc = JSON.parse(zlib.brotliDecompressSync(br.body).toString()) as { openapi: string };
    expect(doc.openapi).toBe('3.0.3');

    const page = await raw('/kids', 'gzip');
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(page.body).toString()).toContain('<html');

    const none = await raw('/api/openapi.json');
    expect(none.headers['content-encoding']).toBeUndefined();
  });
});
