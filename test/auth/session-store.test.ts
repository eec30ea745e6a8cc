import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFamily, loginChild, startTestApp, type TestApp } from '../helpers/app.js';
import { SqliteSessionStore } from '../../src/db/session-store.js';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('SqliteSessionStore', () => {
  it('touch extends the expiry without writing back an older copy of the session', async () => {
    const store = new SqliteSessionStore(t.db, 60_000);
    const cookie = { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000) };
    const set = (sess: object) => new Promise<void>((r, j) => store.set('sid-1', sess as never, (e) => (e ? j(e) : r())));
    await set({ cookie, role: 'child', parentId: 'p_1', expertId: 'e' });
    const stale = { cookie: { ...cookie, expires: new Date(Date.now() + 120_000) }, role: 'child', parentId: 'p_1', expertId: 'e' };
    await set({ cookie, role: 'child', parentId: 'p_1', expertId: 'e', childId: '123456' });
    await new Promise<void>((r) => store.touch('sid-1', stale as never, () => r()));
    const row = (await t.db.first<{ sess: string; expires_at: number }>('SELECT sess, expires_at FROM sessions WHERE sid = ?', ['sid-1']))!;
    expect(JSON.parse(row.sess).childId).toBe('123456');
    expect(row.expires_at).toBe(stale.cookie.expires.getTime());
  });

  it('touch does not revive a destroyed session', async () => {
    const store = new SqliteSessionStore(t.db, 60_000);
    await new Promise<void>((r) => store.touch('gone', { cookie: { originalMaxAge: 1 } } as never, () => r()));
    expect(await t.db.first('SELECT 1 AS one FROM sessions WHERE sid = ?', ['gone'])).toBeUndefined();
  });

  it('a slow request that started before the profile pick does not undo it', async () => {
    const fam = await createFamily(t);
    const agent = t.agent();
    await agent.post('/api/learners/parents/login').send({ access_code: fam.parentCode });
    // many requests in flight around the pick; the pick must win
    const reads = Array.from({ length: 5 }, () => agent.get('/api/learners/session'));
    await agent.post('/api/learners/session/child').send({ child_id: fam.child.child_id });
    await Promise.all(reads);
    expect((await agent.get('/api/learners/session')).body.child?.child_id).toBe(fam.child.child_id);
    await loginChild(t.agent(), fam);
  });
});
