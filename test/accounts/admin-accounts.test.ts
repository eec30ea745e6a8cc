import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createExpert, createFamily, loginAdmin, loginExpert, startTestApp, type Agent, type TestApp } from '../helpers/app.js';

let t: TestApp;
let admin: Agent;
beforeEach(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t.agent());
});
afterEach(async () => {
  await t.close();
});

const validExpert = { expert_id: 'ms-lee', display_name: 'Ms Lee', password: 'garden-42' };

describe('POST /api/admin/experts', () => {
  it('creates the expert, a default family and a hashed code', async () => {
    const res = await admin.post('/api/admin/experts').send(validExpert);
    expect(res.status).toBe(200);
    expect(res.body.expert).toMatchObject({ expert_id: 'ms-lee', display_name: 'Ms Lee', active: true });
    expect(await t.db.first('SELECT * FROM experts WHERE id = ?', ['ms-lee'])).toBeTruthy();
    const parents = await t.db.all<{ is_default: number }>('SELECT is_default FROM parents WHERE expert_id = ?', ['ms-lee']);
    expect(parents).toEqual([{ is_default: 1 }]);
    const code = await t.db.first<{ code_hash: string; code_enc: string }>("SELECT * FROM access_codes WHERE owner_id = 'ms-lee'");
    expect(code!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(code!.code_enc).not.toContain('garden-42');
    await loginExpert(t.agent(), 'garden-42');
  });

  it.each([
    ['expert_id missing', { display_name: 'A', password: 'abcdef' }, /expert_id/],
    ['expert_id with a slash', { ...validExpert, expert_id: 'a/b' }, /expert_id/],
    ['display_name missing', { expert_id: 'x1', password: 'abcdef' }, /display_name/],
    ['display_name empty', { ...validExpert, display_name: '  ' }, /display_name/],
    ['password missing', { expert_id: 'x1', display_name: 'A' }, /password/],
    ['password too short', { ...validExpert, password: 'abc' }, /at least 6/],
    ['password with spaces', { ...validExpert, password: 'abc def ghi' }, /spaces/],
    ['password not a string', { ...validExpert, password: 123456 }, /password/],
  ])('answers 400 when %s', async (_name, body, message) => {
    const res = await admin.post('/api/admin/experts').send(body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toMatch(message);
    expect(await t.db.first('SELECT count(*) AS n FROM experts')).toEqual({ n: 0 });
  });

  it('answers 409 for a duplicate id or a code another account uses, and stores nothing', async () => {
    await admin.post('/api/admin/experts').send(validExpert);
    const dup = await admin.post('/api/admin/experts').send({ ...validExpert, password: 'other-code' });
    expect(dup.status).toBe(409);
    const sameCode = await admin.post('/api/admin/experts').send({ ...validExpert, expert_id: 'mr-b' });
    expect(sameCode.status).toBe(409);
    expect(sameCode.body.error).toBe('code_taken');
    expect(await t.db.first("SELECT count(*) AS n FROM experts WHERE id = 'mr-b'")).toEqual({ n: 0 });
    expect(await t.db.first("SELECT count(*) AS n FROM parents WHERE expert_id = 'mr-b'")).toEqual({ n: 0 });
  });
});

describe('GET /api/admin/experts', () => {
  it('lists experts with counts and never their codes', async () => {
    const fam = await createFamily(t);
    const res = await admin.get('/api/admin/experts');
    expect(res.body.experts).toEqual([expect.objectContaining({ expert_id: fam.expert.expert_id, child_count: 1, parent_count: 1 })]);
    expect(JSON.stringify(res.body)).not.toContain(fam.expert.code);
  });
});

describe('PUT /api/admin/experts/{expert_id}', () => {
  it('updates the name and the login code', async () => {
    const e = await createExpert(t);
    const res = await admin.put(`/api/admin/experts/${e.expert_id}`).send({ display_name: 'New Name', login_code: 'fresh-code-1' });
    expect(res.status).toBe(200);
    expect(res.body.expert.display_name).toBe('New Name');
    expect((await t.agent().post('/api/expert/login').send({ access_code: e.code })).status).toBe(401);
    await loginExpert(t.agent(), 'fresh-code-1');
  });

  it('refuses unknown fields, bad values and unknown experts', async () => {
    const e = await createExpert(t);
    expect((await admin.put(`/api/admin/experts/${e.expert_id}`).send({ role: 'admin' })).status).toBe(400);
    expect((await admin.put(`/api/admin/experts/${e.expert_id}`).send({ login_code: 'x' })).status).toBe(400);
    expect((await admin.put('/api/admin/experts/nobody').send({ display_name: 'X' })).status).toBe(404);
  });
});

describe('DELETE /api/admin/experts/{expert_id}', () => {
  it('deletes the expert with families, children and codes once the children are deleted', async () => {
    const fam = await createFamily(t);
    // refused while the expert owns children (test/accounts/expert-delete.test.ts covers moving them)
    expect((await admin.delete(`/api/admin/experts/${fam.expert.expert_id}`)).status).toBe(409);
    expect((await admin.delete(`/api/admin/children/${fam.child.child_id}`)).status).toBe(200);
    const res = await admin.delete(`/api/admin/experts/${fam.expert.expert_id}`);
    expect(res.status).toBe(200);
    expect(await t.db.first('SELECT count(*) AS n FROM children')).toEqual({ n: 0 });
    expect(await t.db.first('SELECT count(*) AS n FROM parents')).toEqual({ n: 0 });
    expect(await t.db.first('SELECT count(*) AS n FROM access_codes')).toEqual({ n: 0 });
    expect((await admin.delete(`/api/admin/experts/${fam.expert.expert_id}`)).status).toBe(404);
  });
});

describe('children', () => {
  it('creates a child linked to the default family with defaults', async () => {
    const e = await createExpert(t);
    const res = await admin.post('/api/admin/children').send({ expert_id: e.expert_id, first_name: 'Ana' });
    expect(res.status).toBe(200);
    const child = res.body.child;
    expect(child).toMatchObject({ first_name: 'Ana', last_name: '', icon_key: 'star', interaction_mode: 'flexible', active: true });
    expect(child.child_id).toMatch(/^\d{6}$/);
    const def = await t.db.first<{ id: string }>('SELECT id FROM parents WHERE expert_id = ? AND is_default = 1', [e.expert_id]);
    expect(child.parent_id).toBe(def!.id);
  });

  it.each([
    ['no first_name', { first_name: undefined }, /first_name/],
    ['a bad interaction_mode', { interaction_mode: 'lazy' }, /strict, flexible or passive/],
    ['an unknown icon', { icon_key: 'dragon' }, /icon_key/],
    ['a malformed parent_id', { parent_id: '../x' }, /parent_id/],
  ])('answers 400 for %s', async (_n, fields, message) => {
    const e = await createExpert(t);
    const res = await admin.post('/api/admin/children').send({ expert_id: e.expert_id, first_name: 'Ana', ...fields });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('answers 404 for an unknown expert and 400 for a parent of another expert', async () => {
    expect((await admin.post('/api/admin/children').send({ expert_id: 'ghost', first_name: 'A' })).status).toBe(404);
    const a = await createFamily(t);
    const b = await createExpert(t);
    const res = await admin.post('/api/admin/children').send({ expert_id: b.expert_id, first_name: 'A', parent_id: a.parentId });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('parent_of_other_expert');
  });

  it('lists the experts next to the children (the original admin page fills its drop-downs from them)', async () => {
    const a = await createFamily(t);
    const b = await createExpert(t, { display_name: 'Dr Kim' });
    await admin.post(`/api/admin/experts/${b.expert_id}/deactivate`);
    const res = await admin.get('/api/admin/children');
    expect(res.status).toBe(200);
    expect(res.body.experts).toEqual(expect.arrayContaining([
      { expert_id: a.expert.expert_id, display_name: 'Test Expert', is_active: true },
      { expert_id: b.expert_id, display_name: 'Dr Kim', is_active: false },
    ]));
    // the same experts, in the same order, as GET /api/admin/experts and the database
    const experts = (await admin.get('/api/admin/experts')).body.experts as { expert_id: string; display_name: string; active: boolean }[];
    expect(res.body.experts).toEqual(experts.map((e) => ({ expert_id: e.expert_id, display_name: e.display_name, is_active: e.active })));
    expect(res.body.experts.length).toBe((await t.db.first<{ n: number }>('SELECT count(*) AS n FROM experts'))!.n);
    // a filtered children list still offers every expert
    expect((await admin.get(`/api/admin/children?expert_id=${b.expert_id}`)).body).toMatchObject({ count: 0, children: [], experts: res.body.experts });
  });

  it('lists by expert and hides inactive children unless asked', async () => {
    const a = await createFamily(t);
    const b = await createFamily(t);
    await admin.post(`/api/admin/children/${b.child.child_id}/deactivate`);
    expect((await admin.get('/api/admin/children')).body.children.map((c: { child_id: string }) => c.child_id)).toEqual([a.child.child_id]);
    expect((await admin.get('/api/admin/children?include_inactive=true')).body.count).toBe(2);
    const byExpert = await admin.get(`/api/admin/children?expert_id=${b.expert.expert_id}&include_inactive=1`);
    expect(byExpert.body.children.map((c: { child_id: string }) => c.child_id)).toEqual([b.child.child_id]);
    expect((await admin.get('/api/admin/children?include_inactive=maybe')).status).toBe(400);
  });

  it('updates, unlinks and deletes', async () => {
    const fam = await createFamily(t);
    const id = fam.child.child_id;
    const upd = await admin.put(`/api/admin/children/${id}`).send({ interaction_mode: 'strict', icon_key: 'pig', last_name: 'Ray' });
    expect(upd.body.child).toMatchObject({ interaction_mode: 'strict', icon_key: 'pig', last_name: 'Ray' });
    const unlinked = await admin.post(`/api/admin/children/${id}/unlink`);
    expect(unlinked.body.child.parent_id).toBeNull();
    expect((await t.db.first<{ parent_id: string | null }>('SELECT parent_id FROM children WHERE id = ?', [id]))!.parent_id).toBeNull();
    expect((await admin.put(`/api/admin/children/${id}`).send({ nickname: 'x' })).status).toBe(400);
    expect((await admin.delete(`/api/admin/children/${id}`)).status).toBe(200);
    expect((await admin.delete(`/api/admin/children/${id}`)).status).toBe(404);
    expect((await admin.post('/api/admin/children/12345/deactivate')).status).toBe(400);
  });
});
