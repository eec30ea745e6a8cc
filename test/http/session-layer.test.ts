import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginAdmin, startTestApp, type TestApp } from '../helpers/app.js';

/**
 * The session layer that replaced express-session (src/http/session-layer.ts): the same signed
 * cookie format, the store in the database, no row or cookie for a visitor who never logs in.
 */
let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  await t.close();
});

const HOUR = 3600_000;
const sign = (sid: string) => crypto.createHmac('sha256', t.config.SESSION_SECRET).update(sid).digest('base64').replace(/=+$/, '');
const cookieFor = (sid: string, sig = sign(sid)) => `kvq.sid=${encodeURIComponent(`s:${sid}.${sig}`)}`;
const sids = async () => (await t.db.all<{ sid: string }>('SELECT sid FROM sessions ORDER BY sid')).map((r) => r.sid);

describe('session layer', () => {
  it('keeps express-session cookies and rows working (same signature and stored shape)', async () => {
    // a row and a cookie exactly as express-session wrote them before the change
    const sid = 'legacy-express-session-id-0123456';
    const expires = Date.now() + 24 * HOUR;
    const sess = {
      cookie: { originalMaxAge: 24 * HOUR, expires: new Date(expires).toISOString(), secure: false, httpOnly: true, path: '/', sameSite: 'lax' },
      role: 'admin',
    };
    await t.db.run('INSERT INTO sessions (sid, sess, expires_at) VALUES (?, ?, ?)', [sid, JSON.stringify(sess), expires]);
    const me = await t.agent().get('/api/me').set('Cookie', cookieFor(sid));
    expect(me.status).toBe(200);
    expect(me.body.role).toBe('admin');
    // nothing changed: no new cookie, the row as it was
    expect(me.headers['set-cookie']).toBeUndefined();
    const row = await t.db.first<{ sess: string; expires_at: number }>('SELECT sess, expires_at FROM sessions WHERE sid = ?', [sid]);
    expect(JSON.parse(row!.sess)).toEqual(sess);
    expect(Number(row!.expires_at)).toBe(expires);
  });

  it('refuses a cookie whose signature does not match, and one for an unknown session', async () => {
    const agent = await loginAdmin(t.agent());
    const [sid] = await sids();
    const ok = await t.agent().get('/api/admin/experts').set('Cookie', cookieFor(sid!));
    expect(ok.status).toBe(200);
    const forged = await t
      .agent()
      .get('/api/admin/experts')
      .set('Cookie', cookieFor(sid!, sign(`${sid}x`)));
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ success: false, error: 'not_logged_in' });
    const unsigned = await t.agent().get('/api/admin/experts').set('Cookie', `kvq.sid=${sid}`);
    expect(unsigned.status).toBe(401);
    const unknown = await t.agent().get('/api/admin/experts').set('Cookie', cookieFor('no-such-session'));
    expect(unknown.status).toBe(401);
    // the real session is untouched by the refused ones
    expect((await agent.get('/api/me')).body.role).toBe('admin');
    expect(await sids()).toEqual([sid]);
  });

  it('writes no row and sends no cookie for a visitor who does not log in', async () => {
    const res = await t.agent().get('/api/me');
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await sids()).toEqual([]);
  });

  it('login sets a signed, HttpOnly, SameSite=Lax cookie with the configured lifetime; logout ends the row', async () => {
    const agent = t.agent();
    const login = await agent.post('/api/admin/verify-access').send({ password: 'test-admin-password' });
    expect(login.status).toBe(200);
    const cookie = String(login.headers['set-cookie']);
    const [sid] = await sids();
    expect(cookie).toContain(cookieFor(sid!));
    expect(cookie).toMatch(/Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax/);
    const cookieExpires = new Date(/Expires=([^;]+)/.exec(cookie)![1]!).getTime();
    expect(Math.abs(cookieExpires - (Date.now() + t.config.SESSION_MAX_AGE_HOURS * HOUR))).toBeLessThan(60_000);
    const row = await t.db.first<{ sess: string }>('SELECT sess FROM sessions WHERE sid = ?', [sid!]);
    expect(JSON.parse(row!.sess)).toMatchObject({ role: 'admin', cookie: { httpOnly: true, path: '/', sameSite: 'lax' } });

    const out = await agent.post('/api/admin/logout');
    expect(out.status).toBe(200);
    expect(await sids()).toEqual([]);
    const after = await t.agent().get('/api/admin/experts').set('Cookie', cookieFor(sid!));
    expect(after.status).toBe(401);
  });
});
