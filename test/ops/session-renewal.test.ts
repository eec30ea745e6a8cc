import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginAdmin, startTestApp, type TestApp } from '../helpers/app.js';
import { SqliteSessionStore } from '../../src/db/session-store.js';

const HOUR = 3600_000;
let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  await t.close();
});

const row = async (sid: string) => (await t.db.first<{ sess: string; expires_at: number }>('SELECT sess, expires_at FROM sessions WHERE sid = ?', [sid]))!;
const callback = (fn: (cb: (err?: unknown) => void) => void) => new Promise<void>((resolve, reject) => fn((err) => (err ? reject(err) : resolve())));

describe('sliding session lifetime without a write per request', () => {
  it('sends the cookie at login, not on every later request, and slides it again after a few minutes', async () => {
    const agent = await loginAdmin(t.agent());
    const only = await t.db.all<{ sid: string }>('SELECT sid FROM sessions');
    expect(only).toHaveLength(1);
    const sid = only[0]!.sid;
    const before = await row(sid);

    const me = await agent.get('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.role).toBe('admin');
    expect(me.headers['set-cookie']).toBeUndefined();
    expect(await row(sid)).toEqual(before); // neither the session nor its expiry was written

    // ten minutes later (as stored): the next request slides both the cookie and the row
    const maxAge = t.config.SESSION_MAX_AGE_HOURS * HOUR;
    const sess = JSON.parse(before.sess) as { cookie: { expires: string } };
    const earlier = Date.now() + maxAge - 10 * 60_000;
    sess.cookie.expires = new Date(earlier).toISOString();
    await t.db.run('UPDATE sessions SET sess = ?, expires_at = ? WHERE sid = ?', [JSON.stringify(sess), earlier, sid]);
    const again = await agent.get('/api/me');
    expect(again.body.role).toBe('admin');
    const cookie = String(again.headers['set-cookie']);
    expect(cookie).toContain('kvq.sid=');
    const cookieExpires = new Date(/Expires=([^;]+)/.exec(cookie)![1]!).getTime();
    expect(cookieExpires).toBeGreaterThan(earlier + 5 * 60_000);
    const after = await row(sid);
    expect(after.expires_at).toBeGreaterThan(earlier + 5 * 60_000);
    expect(JSON.parse(after.sess)).toMatchObject({ role: 'admin', renewedAt: expect.any(Number) });
  });

  it('the store moves a row expiry only when it moves by more than the touch interval', async () => {
    const maxAge = 24 * HOUR; // touch interval: 5 minutes
    const store = new SqliteSessionStore(t.db, maxAge);
    const at = Date.now() + maxAge;
    const sess = (expires: number) => ({ cookie: { originalMaxAge: maxAge, expires: new Date(expires) }, role: 'admin' }) as never;
    await callback((cb) => store.set('sid-touch', sess(at), cb));
    await callback((cb) => store.touch('sid-touch', sess(at + 60_000), cb));
    expect((await row('sid-touch')).expires_at).toBe(at);
    await callback((cb) => store.touch('sid-touch', sess(at + 6 * 60_000), cb));
    expect((await row('sid-touch')).expires_at).toBe(at + 6 * 60_000);
  });
});
