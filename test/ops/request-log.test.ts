import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Db } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { createApp, type BuiltApp } from '../../src/app.js';

const ADMIN = 'log-test-admin-password';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface LoggedApp {
  built: BuiltApp;
  db: Db;
  /** every JSON line the app logged so far */
  lines(): Record<string, unknown>[];
  raw(): string;
}

const opened: { built: BuiltApp; db: Db; dir: string }[] = [];

/** The real app on a temp data dir, logging at info into memory instead of stdout. */
async function loggedApp(env: Record<string, string> = {}): Promise<LoggedApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-log-'));
  const config = loadConfig({ DATA_DIR: dir, ADMIN_PASSWORD: ADMIN, DEMO_SEED: 'false', SAMPLE_IMPORT: 'false', LOG_LEVEL: 'info', ...env });
  const db = openDatabase(path.join(dir, 'app.sqlite'));
  let out = '';
  const built = await createApp({ config, db, logger: createLogger('info', { write: (s: string) => void (out += s) }) });
  opened.push({ built, db, dir });
  return {
    built,
    db,
    raw: () => out,
    lines: () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const requestLines = (app: LoggedApp) => app.lines().filter((l) => l.module === 'http' && typeof l.status === 'number');

afterEach(async () => {
  for (const { built, db, dir } of opened.splice(0)) {
    // the 5xx case closes the database on purpose; the app's close path (jobs) needs it open
    if (db.raw.open) await built.close();
    void db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('request log and request id', () => {
  it('logs one line per request with id, method, path, route, status and time, and sends the id back', async () => {
    const app = await loggedApp();
    const res = await request(app.built.app).get('/health');
    expect(res.status).toBe(200);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(UUID);
    const lines = requestLines(app);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, reqId: id, method: 'GET', url: '/health', route: '/health', status: 200, msg: 'request' });
    expect(typeof lines[0]!.ms).toBe('number');

    const admin = request.agent(app.built.app);
    await admin.post('/api/admin/verify-access').send({ password: ADMIN }).expect(200);
    const missing = await admin.get('/api/final-questions/no-such-video?companion=bunny');
    expect(missing.status).toBe(404);
    const last = requestLines(app).at(-1)!;
    // the route pattern groups requests; the query string is never logged
    expect(last).toMatchObject({ level: 40, reqId: missing.headers['x-request-id'], route: '/api/final-questions/:video_id', url: '/api/final-questions/no-such-video', status: 404 });
    expect(app.raw()).not.toContain('companion=bunny');
  });

  it("ignores a client's X-Request-Id unless TRUST_PROXY is on, and refuses ids that are not plain tokens", async () => {
    const direct = await loggedApp();
    const spoofed = await request(direct.built.app).get('/health').set('X-Request-Id', 'proxy-id-123');
    expect(spoofed.headers['x-request-id']).toMatch(UUID);
    expect(requestLines(direct)[0]!.reqId).toBe(spoofed.headers['x-request-id']);

    const proxied = await loggedApp({ TRUST_PROXY: 'true' });
    const res = await request(proxied.built.app).get('/health').set('X-Request-Id', 'proxy-id-123');
    expect(res.headers['x-request-id']).toBe('proxy-id-123');
    expect(requestLines(proxied)[0]!.reqId).toBe('proxy-id-123');
    const injected = await request(proxied.built.app).get('/health').set('X-Request-Id', 'a" b {"level":60}');
    expect(injected.headers['x-request-id']).toMatch(UUID);
  });

  it('never logs passwords, codes, cookies, authorization or answers', async () => {
    const app = await loggedApp();
    const agent = request.agent(app.built.app);
    const login = await agent.post('/api/admin/verify-access').set('Authorization', 'Bearer top-secret-token').send({ password: ADMIN });
    expect(login.status).toBe(200);
    const sid = /kvq\.sid=([^;]+)/.exec(String(login.headers['set-cookie']))![1]!;
    await request(app.built.app).post('/api/expert/login').send({ access_code: 'guessed-code-424242' }).expect(401);
    const graded = await agent.post('/api/check_answer').send({ expected: 'purple elephant', user: 'a purple elephant maybe', question: 'What did Sam see?' });
    expect(graded.status).toBe(200);
    expect(graded.body.status).toBe('correct');

    const lines = requestLines(app);
    expect(lines.map((l) => `${l.method} ${l.route} ${l.status}`)).toEqual([
      'POST /api/admin/verify-access 200',
      'POST /api/expert/login 401',
      'POST /api/check_answer 200',
    ]);
    const raw = app.raw();
    for (const secret of [ADMIN, 'top-secret-token', 'guessed-code-424242', 'purple elephant', 'What did Sam see', sid, decodeURIComponent(sid)]) {
      expect(raw, secret).not.toContain(secret);
    }
  });

  it('puts the request id in every 5xx body and logs the failure under the same id', async () => {
    const app = await loggedApp();
    const admin = request.agent(app.built.app);
    await admin.post('/api/admin/verify-access').send({ password: ADMIN }).expect(200);
    app.db.raw.close(); // the database going away mid-service: reading the session fails, a real unhandled error
    const res = await admin.get('/api/me');
    expect(res.status).toBe(500);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(UUID);
    expect(res.body).toEqual({ success: false, message: expect.any(String), error: 'internal_error', request_id: id });
    expect(res.body.message).not.toMatch(/database|sqlite/i);
    const errors = app.lines().filter((l) => l.reqId === id && l.level === 50);
    expect(errors.map((l) => l.msg)).toEqual(['unhandled error', 'request failed']);
    expect(errors[1]).toMatchObject({ status: 500, url: '/api/me' });
    expect(errors[1]).not.toHaveProperty('route');
  });
});
