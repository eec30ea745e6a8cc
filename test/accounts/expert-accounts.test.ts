import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChild, createFamily, loginChild, loginExpert, startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('expert codes', () => {
  it('shows the expert their own code and lets them change it', async () => {
    const fam = await createFamily(t);
    const agent = await loginExpert(t.agent(), fam.expert.code);
    expect((await agent.get('/api/expert/access-code')).body).toMatchObject({ access_code: fam.expert.code, expert_id: fam.expert.expert_id });
    expect((await agent.put('/api/expert/my-login-code').send({ login_code: 'short' })).status).toBe(400);
    expect((await agent.put('/api/expert/my-login-code').send({ login_code: fam.parentCode })).status).toBe(409);
    expect((await agent.put('/api/expert/my-login-code').send({ login_code: 'my-new-code' })).status).toBe(200);
    expect((await agent.get('/api/expert/access-code')).body.access_code).toBe('my-new-code');
    await loginExpert(t.agent(), 'my-new-code');
  });
});

describe('parents', () => {
  it('lists the expert’s parents with codes and children', async () => {
    const fam = await createFamily(t);
    const agent = await loginExpert(t.agent(), fam.expert.code);
    const res = await agent.get('/api/expert/parents');
    expect(res.body.parents).toEqual([expect.objectContaining({ parent_id: fam.parentId, is_default: true, login_code: fam.parentCode, child_count: 1 })]);
    const kids = await agent.get(`/api/expert/parents/${fam.parentId}/children`);
    expect(kids.body.children.map((c: { child_id: string }) => c.child_id)).toEqual([fam.child.child_id]);
  });

  it('creates further parents, links a child to one, and the new code logs into that family only', async () => {
    const fam = await createFamily(t);
    const agent = await loginExpert(t.agent(), fam.expert.code);
    const created = await agent.post('/api/expert/parents').send({ display_name: 'Grandma', login_code: 'granny-77' });
    expect(created.status).toBe(200);
    const pid = created.body.parent.parent_id;
    expect((await agent.put(`/api/expert/children/${fam.child.child_id}/parent`).send({ parent_id: pid })).body.child.parent_id).toBe(pid);
    const tablet = await t.agent().post('/api/learners/parents/login').send({ access_code: 'granny-77' });
    expect(tablet.body.children.map((c: { child_id: string }) => c.child_id)).toEqual([fam.child.child_id]);
    const old = await t.agent().post('/api/learners/parents/login').send({ access_code: fam.parentCode });
    expect(old.body.children).toEqual([]);
  });

  it('refuses another expert’s parents and children (403) and bad ids (400)', async () => {
    const a = await createFamily(t);
    const b = await createFamily(t);
    const agent = await loginExpert(t.agent(), a.expert.code);
    expect((await agent.get(`/api/expert/parents/${b.parentId}/children`)).status).toBe(403);
    expect((await agent.put(`/api/expert/parents/${b.parentId}/login-code`).send({ login_code: 'steal-it-1' })).status).toBe(403);
    expect((await agent.put(`/api/expert/children/${b.child.child_id}/parent`).send({ parent_id: null })).status).toBe(403);
    expect((await agent.put(`/api/expert/children/${a.child.child_id}/parent`).send({ parent_id: b.parentId })).status).toBe(400);
    expect((await agent.get('/api/expert/parents/p_0000000000/children')).status).toBe(404);
    expect((await agent.get('/api/expert/parents/..%2f..%2fetc/children')).status).toBe(400);
    expect((await agent.put(`/api/expert/parents/${a.parentId}/login-code`).send({})).status).toBe(400);
  });
});

describe('GET /api/learners/experts/{expert_id}/children', () => {
  it('lists the expert’s active children for that expert and the admin only', async () => {
    const a = await createFamily(t);
    const b = await createFamily(t);
    const extra = await createChild(t, a.expert.expert_id, { first_name: 'Zed' });
    const agent = await loginExpert(t.agent(), a.expert.code);
    const res = await agent.get(`/api/learners/experts/${a.expert.expert_id}/children`);
    expect(res.body.children.map((c: { child_id: string }) => c.child_id).sort()).toEqual([a.child.child_id, extra.child_id].sort());
    expect((await agent.get(`/api/learners/experts/${b.expert.expert_id}/children`)).status).toBe(403);
    const tablet = await loginChild(t.agent(), a);
    expect((await tablet.get(`/api/learners/experts/${a.expert.expert_id}/children`)).status).toBe(403);
  });
});
