import request from 'supertest';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/app.js';
import { createTestDatabase } from '../helpers/pg-cluster.js';
import { startTempApp, type TempApp } from '../helpers/temp-app.js';

const pgUrl = inject('pgUrl');
const ADMIN = 'instances-admin-password';

describe.skipIf(!pgUrl)('two app instances on one PostgreSQL database', () => {
  let target: { url: string; drop(): Promise<void> };
  let a: TempApp;
  let b: TempApp;
  beforeAll(async () => {
    target = await createTestDatabase(pgUrl, 'instances');
    // started together: one migrates, one secret row wins
    [a, b] = await Promise.all([
      startTempApp({ DATABASE_URL: target.url, ADMIN_PASSWORD: ADMIN }),
      startTempApp({ DATABASE_URL: target.url, ADMIN_PASSWORD: ADMIN }),
    ]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await target?.drop();
  });

  it('share one generated secret, so a code made on one logs in on the other and a session cookie works on both', async () => {
    expect(a.config.sessionSecretFrom).toBe('database');
    expect(a.config.SESSION_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(b.config.SESSION_SECRET).toBe(a.config.SESSION_SECRET);
    expect(await a.db.all('SELECT name FROM app_secrets')).toEqual([{ name: 'session' }]);

    const adminA = request.agent(a.built.app);
    expect((await adminA.post('/api/admin/verify-access').send({ password: ADMIN })).status).toBe(200);
    const made = await adminA.post('/api/admin/experts').send({ expert_id: 'shared-expert', display_name: 'Shared', password: 'shared-code-123' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);

    const onB = await request(b.built.app).post('/api/expert/login').send({ access_code: 'shared-code-123' });
    expect(onB.status, JSON.stringify(onB.body)).toBe(200);
    const cookie = ([] as string[]).concat(onB.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(cookie).toBeTruthy();
    // the cookie signed by B is accepted by A (same secret, same sessions table)
    // A reads the session B made, and decrypts the code for it (one key for both)
    const me = await request(a.built.app).get('/api/expert/access-code').set('Cookie', cookie!.split(';')[0]!);
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body).toMatchObject({ expert_id: 'shared-expert', access_code: 'shared-code-123' });
    expect(await b.db.first('SELECT COUNT(*) AS n FROM experts WHERE id = ?', ['shared-expert'])).toEqual({ n: 1 });
  });
});
