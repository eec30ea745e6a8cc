import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createExpert, createFamily, loginAdmin, loginChild, startTestApp, TEST_ADMIN_PASSWORD, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('POST /api/admin/verify-access', () => {
  it('logs the admin in and the session reaches admin routes', async () => {
    const agent = t.agent();
    const res = await agent.post('/api/admin/verify-access').send({ password: TEST_ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, role: 'admin' });
    expect(res.headers['set-cookie']?.[0]).toMatch(/kvq\.sid=.*HttpOnly.*SameSite=Lax/i);
    expect((await agent.get('/api/admin/experts')).status).toBe(200);
  });

  it('answers 401 with the error body for a wrong password', async () => {
    const res = await t.agent().post('/api/admin/verify-access').send({ password: 'nope' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: 'invalid_credentials' });
    expect(res.body.message).toMatch(/wrong admin password/i);
  });

  it('answers 400 when password is missing or not a string', async () => {
    for (const body of [{}, { password: 42 }]) {
      const res = await t.agent().post('/api/admin/verify-access').send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/password/);
    }
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await t.agent().post('/api/admin/verify-access').set('content-type', 'application/json').send('{"password":');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_json');
  });

  it('regenerates the session id on login', async () => {
    const agent = t.agent();
    const first = await agent.post('/api/admin/verify-access').send({ password: TEST_ADMIN_PASSWORD });
    const second = await agent.post('/api/admin/verify-access').send({ password: TEST_ADMIN_PASSWORD });
    const sid = (r: typeof first) => r.headers['set-cookie']?.[0]?.split(';')[0];
    expect(sid(first)).toBeTruthy();
    expect(sid(second)).not.toBe(sid(first));
  });
});

describe('rate limiting of logins', () => {
  it('locks a client out with 429 after 10 wrong admin passwords, even for the right one', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await t.agent().post('/api/admin/verify-access').send({ password: `wrong${i}` })).status).toBe(401);
    }
    const locked = await t.agent().post('/api/admin/verify-access').send({ password: TEST_ADMIN_PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/too many/i);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const row = await t.db.first<{ n: number }>('SELECT count(*) AS n FROM login_throttle WHERE locked_until > 0');
    expect(row!.n).toBeGreaterThan(0);
  });

  it('limits wrong expert and parent codes per client', async () => {
    for (let i = 0; i < 10; i++) await t.agent().post('/api/expert/login').send({ access_code: `bad-code-${i}` });
    expect((await t.agent().post('/api/expert/login').send({ access_code: 'bad-code-x' })).status).toBe(429);
    for (let i = 0; i < 10; i++) await t.agent().post('/api/learners/parents/login').send({ access_code: `bad-code-${i}` });
    expect((await t.agent().post('/api/learners/parents/login').send({ access_code: 'bad' })).status).toBe(429);
  });

  it('keeps the lock across a restart (stored in SQLite)', async () => {
    for (let i = 0; i < 10; i++) await t.agent().post('/api/admin/verify-access').send({ password: `wrong${i}` });
    t = await t.restart();
    expect((await t.agent().post('/api/admin/verify-access').send({ password: TEST_ADMIN_PASSWORD })).status).toBe(429);
  });
});

describe('POST /api/expert/login and logout', () => {
  it('logs an expert in with the code alone and out again', async () => {
    const expert = await createExpert(t);
    const agent = t.agent();
    const res = await agent.post('/api/expert/login').send({ access_code: expert.code });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, expert_id: expert.expert_id });
    expect((await agent.get('/api/expert/parents')).status).toBe(200);
    expect((await agent.post('/api/expert/logout')).body.success).toBe(true);
    expect((await agent.get('/api/expert/parents')).status).toBe(401);
  });

  it('answers 401 for a wrong code and for a parent code', async () => {
    const fam = await createFamily(t);
    expect((await t.agent().post('/api/expert/login').send({ access_code: 'not-a-code' })).status).toBe(401);
    expect((await t.agent().post('/api/expert/login').send({ access_code: fam.parentCode })).status).toBe(401);
  });

  it('refuses a deactivated expert and ends their open sessions', async () => {
    const expert = await createExpert(t);
    const session = t.agent();
    await session.post('/api/expert/login').send({ access_code: expert.code });
    const admin = await loginAdmin(t.agent());
    expect((await admin.post(`/api/admin/experts/${expert.expert_id}/deactivate`)).status).toBe(200);
    expect((await session.get('/api/expert/parents')).status).toBe(401);
    expect((await t.agent().post('/api/expert/login').send({ access_code: expert.code })).status).toBe(401);
  });

  it('answers 400 when access_code is missing', async () => {
    const res = await t.agent().post('/api/expert/login').send({});
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/access_code/);
  });
});

describe('POST /api/verify-password (legacy)', () => {
  it('accepts the admin password as a form and returns a redirect', async () => {
    const res = await t.agent().post('/api/verify-password').type('form').send({ user_type: 'admin', password: TEST_ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, redirect: '/admin', message: expect.any(String) });
  });

  it('accepts an expert code', async () => {
    const expert = await createExpert(t);
    const res = await t.agent().post('/api/verify-password').type('form').send({ user_type: 'expert', password: expert.code });
    expect(res.body).toMatchObject({ success: true, redirect: '/expert' });
  });

  it('answers 422 with detail[{loc,msg,type}] for invalid input', async () => {
    const res = await t.agent().post('/api/verify-password').type('form').send({ user_type: 'teacher' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'user_type'], msg: expect.any(String), type: expect.any(String) },
        { loc: ['body', 'password'], msg: expect.any(String), type: expect.any(String) },
      ]),
    );
  });

  it('answers 401 for a wrong password', async () => {
    const res = await t.agent().post('/api/verify-password').type('form').send({ user_type: 'admin', password: 'nope' });
    expect(res.status).toBe(401);
    expect(res.body.success).toBe(false);
  });
});

describe('POST /api/verify-password as multipart/form-data (what a browser FormData sends)', () => {
  it('logs the admin in exactly like the urlencoded form', async () => {
    const agent = t.agent();
    const res = await agent.post('/api/verify-password').field('user_type', 'admin').field('password', TEST_ADMIN_PASSWORD);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ success: true, redirect: '/admin', message: expect.any(String) });
    expect((await agent.get('/api/admin/experts')).status).toBe(200);
    // the session is stored in the database like any other login
    const sessions = (await t.db.all<{ sess: string }>('SELECT sess FROM sessions')).map((r) => JSON.parse(r.sess));
    expect(sessions.some((s) => s.role === 'admin')).toBe(true);
  });

  it('logs an expert in with their code', async () => {
    const expert = await createExpert(t);
    const agent = t.agent();
    const res = await agent.post('/api/verify-password').field('user_type', 'expert').field('password', expert.code);
    expect(res.body).toMatchObject({ success: true, redirect: '/expert' });
    expect((await agent.get('/api/me')).body).toMatchObject({ role: 'expert', expert_id: expert.expert_id });
  });

  it('answers the same 422 detail[] as the urlencoded form when fields are missing or wrong', async () => {
    const multipart = await t.agent().post('/api/verify-password').field('user_type', 'teacher');
    const form = await t.agent().post('/api/verify-password').type('form').send({ user_type: 'teacher' });
    expect(multipart.status).toBe(422);
    expect(multipart.body).toEqual(form.body);
    expect(multipart.body).toMatchObject({ success: false, error: 'validation_error' });
    expect(multipart.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'user_type'], msg: expect.any(String), type: expect.any(String) },
        { loc: ['body', 'password'], msg: expect.any(String), type: expect.any(String) },
      ]),
    );
  });

  it('names both fields when the form is empty, in either encoding', async () => {
    for (const req of [t.agent().post('/api/verify-password').type('form').send(''), t.agent().post('/api/verify-password')]) {
      const res = await req;
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual(expect.arrayContaining([['body', 'user_type'], ['body', 'password']]));
    }
  });

  it('answers 401 for a wrong password and 400 for a file part', async () => {
    const wrong = await t.agent().post('/api/verify-password').field('user_type', 'admin').field('password', 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ success: false, error: 'invalid_credentials' });
    const file = await t.agent().post('/api/verify-password').field('user_type', 'admin').attach('password', Buffer.from('x'), 'p.txt');
    expect(file.status).toBe(400);
    expect(file.body).toMatchObject({ success: false, error: 'bad_upload' });
  });
});

describe('child sessions', () => {
  it('parent login answers the parent and only its active children', async () => {
    const fam = await createFamily(t);
    const admin = await loginAdmin(t.agent());
    const sib = (await admin.post('/api/admin/children').send({ expert_id: fam.expert.expert_id, first_name: 'Leo' })).body.child;
    const gone = (await admin.post('/api/admin/children').send({ expert_id: fam.expert.expert_id, first_name: 'Old' })).body.child;
    await admin.post(`/api/admin/children/${gone.child_id}/deactivate`);
    const res = await t.agent().post('/api/learners/parents/login').send({ access_code: fam.parentCode });
    expect(res.status).toBe(200);
    expect(res.body.parent).toEqual({ parent_id: fam.parentId, display_name: expect.any(String) });
    expect(res.body.children.map((c: { child_id: string }) => c.child_id).sort()).toEqual([fam.child.child_id, sib.child_id].sort());
  });

  it('answers 401 for an invalid code and for an expert code', async () => {
    const fam = await createFamily(t);
    expect((await t.agent().post('/api/learners/parents/login').send({ access_code: 'nothing' })).status).toBe(401);
    expect((await t.agent().post('/api/learners/parents/login').send({ access_code: fam.expert.code })).status).toBe(401);
  });

  it('lets the child pick only a profile of that family', async () => {
    const fam = await createFamily(t);
    const other = await createFamily(t);
    const agent = t.agent();
    await agent.post('/api/learners/parents/login').send({ access_code: fam.parentCode });
    expect((await agent.post('/api/learners/session/child').send({ child_id: other.child.child_id })).status).toBe(403);
    expect((await agent.post('/api/learners/session/child').send({ child_id: 'abc' })).status).toBe(400);
    const ok = await agent.post('/api/learners/session/child').send({ child_id: fam.child.child_id });
    expect(ok.body.child.child_id).toBe(fam.child.child_id);
    const s = await agent.get('/api/learners/session');
    expect(s.body).toMatchObject({ role: 'child', child: { child_id: fam.child.child_id }, companion: null });
    expect((await agent.post('/api/learners/session/companion').send({ companion: 'dragon' })).status).toBe(400);
    expect((await agent.post('/api/learners/session/companion').send({ companion: 'pig' })).body.companion).toBe('pig');
    expect((await agent.get('/api/learners/session')).body.companion).toBe('pig');
  });

  it('sessions survive an app restart', async () => {
    const fam = await createFamily(t);
    const agent = await loginChild(t.agent(), fam);
    const cookie = (await agent.get('/api/learners/session')).request.cookies;
    t = await t.restart();
    const res = await t.agent().get('/api/learners/session').set('Cookie', cookie);
    expect(res.status).toBe(200);
    expect(res.body.child.child_id).toBe(fam.child.child_id);
  });
});
