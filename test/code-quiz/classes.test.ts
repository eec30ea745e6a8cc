import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChild, createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { createClass, enrol } from './factories.js';

let t: TestApp;
let fam: TestFamily;
let other: TestFamily;
let expert: Agent;
let otherExpert: Agent;

beforeAll(async () => {
  t = await startTestApp();
  fam = await createFamily(t);
  other = await createFamily(t);
  expert = await loginExpert(t.agent(), fam.expert.code);
  otherExpert = await loginExpert(t.agent(), other.expert.code);
});
afterAll(() => t.close());

const classRow = async (id: number) => (await t.db.first<{ expert_id: string; name: string; description: string }>('SELECT * FROM classes WHERE id = ?', [id]));

describe('POST/GET /api/expert/classes', () => {
  it('creates a class owned by the expert and lists only their own', async () => {
    const res = await expert.post('/api/expert/classes').send({ name: '  Robots  ', description: 'After school' });
    expect(res.status).toBe(200);
    expect(res.body.class).toMatchObject({ name: 'Robots', description: 'After school', expert_id: fam.expert.expert_id, children: [], problem_count: 0 });
    expect(await classRow(res.body.class.class_id)).toMatchObject({ expert_id: fam.expert.expert_id, name: 'Robots' });
    await createClass(otherExpert, 'Not yours');
    const list = await expert.get('/api/expert/classes');
    expect(list.status).toBe(200);
    expect(list.body.classes.map((c: { name: string }) => c.name)).toEqual(['Robots']);
    const all = await (await loginAdmin(t.agent())).get('/api/expert/classes');
    expect(all.body.classes.map((c: { name: string }) => c.name).sort()).toEqual(['Not yours', 'Robots']);
  });

  it('refuses bad input, anonymous callers and children', async () => {
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 'ok', extra: 1 }, { name: 5 }]) {
      const res = await expert.post('/api/expert/classes').send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'validation_error' });
    }
    expect((await t.agent().post('/api/expert/classes').send({ name: 'x' })).status).toBe(401);
    expect((await t.agent().get('/api/expert/classes')).status).toBe(401);
    const child = await loginChild(t.agent(), fam);
    expect((await child.post('/api/expert/classes').send({ name: 'x' })).status).toBe(403);
    expect((await child.get('/api/expert/classes')).status).toBe(403);
    const admin = await loginAdmin(t.agent());
    expect((await admin.post('/api/expert/classes').send({ name: 'x' })).status).toBe(403);
  });
});

describe('PUT/DELETE /api/expert/classes/{class_id}', () => {
  it('renames its own class; another expert gets 403, unknown 404, bad id 400', async () => {
    const id = await createClass(expert, 'Old');
    const res = await expert.put(`/api/expert/classes/${id}`).send({ name: 'New' });
    expect(res.status).toBe(200);
    expect(res.body.class).toMatchObject({ class_id: id, name: 'New', description: 'Tuesday club' });
    expect((await classRow(id))!.name).toBe('New');
    const theirs = await otherExpert.put(`/api/expert/classes/${id}`).send({ name: 'Mine now' });
    expect(theirs.status).toBe(403);
    expect(theirs.body.error).toBe('class_not_yours');
    expect((await classRow(id))!.name).toBe('New');
    expect((await expert.put('/api/expert/classes/999999').send({ name: 'x' })).status).toBe(404);
    expect((await expert.put('/api/expert/classes/abc').send({ name: 'x' })).status).toBe(400);
    expect((await expert.put(`/api/expert/classes/${id}`).send({ name: '' })).status).toBe(400);
    expect((await t.agent().put(`/api/expert/classes/${id}`).send({ name: 'x' })).status).toBe(401);
  });

  it('deletes its own class with its enrolments; another expert cannot', async () => {
    const id = await createClass(expert, 'Short-lived');
    await enrol(expert, id, fam.child.child_id);
    expect((await otherExpert.delete(`/api/expert/classes/${id}`)).status).toBe(403);
    const res = await expert.delete(`/api/expert/classes/${id}`);
    expect(res.body).toEqual({ success: true, deleted: id });
    expect(await classRow(id)).toBeUndefined();
    expect(await t.db.all('SELECT * FROM class_enrolments WHERE class_id = ?', [id])).toEqual([]);
    expect((await expert.delete(`/api/expert/classes/${id}`)).status).toBe(404);
  });
});

describe('enrolments', () => {
  it("enrols the expert's own child once and takes them out again", async () => {
    const id = await createClass(expert, 'Enrol');
    const res = await expert.post(`/api/expert/classes/${id}/enrolments`).send({ child_id: fam.child.child_id });
    expect(res.status).toBe(200);
    expect(res.body.enrolled).toBe(true);
    expect(res.body.class.children.map((c: { child_id: string }) => c.child_id)).toEqual([fam.child.child_id]);
    const again = await expert.post(`/api/expert/classes/${id}/enrolments`).send({ child_id: fam.child.child_id });
    expect(again.body.enrolled).toBe(false);
    expect(await t.db.all('SELECT child_id FROM class_enrolments WHERE class_id = ?', [id])).toEqual([{ child_id: fam.child.child_id }]);
    const out = await expert.delete(`/api/expert/classes/${id}/enrolments/${fam.child.child_id}`);
    expect(out.status).toBe(200);
    expect(out.body.class.children).toEqual([]);
    expect(await t.db.all('SELECT * FROM class_enrolments WHERE class_id = ?', [id])).toEqual([]);
    expect((await expert.delete(`/api/expert/classes/${id}/enrolments/${fam.child.child_id}`)).status).toBe(404);
  });

  it("refuses another family's child, another expert's class, bad ids and children", async () => {
    const id = await createClass(expert, 'Guarded');
    const foreign = await expert.post(`/api/expert/classes/${id}/enrolments`).send({ child_id: other.child.child_id });
    expect(foreign.status).toBe(403);
    const theirs = await otherExpert.post(`/api/expert/classes/${id}/enrolments`).send({ child_id: other.child.child_id });
    expect(theirs.status).toBe(403);
    // the admin may enrol, but only a child of the class's own expert
    const admin = await loginAdmin(t.agent());
    expect((await admin.post(`/api/expert/classes/${id}/enrolments`).send({ child_id: other.child.child_id })).status).toBe(403);
    const second = await createChild(t, fam.expert.expert_id, { first_name: 'Leo' });
    expect((await admin.post(`/api/expert/classes/${id}/enrolments`).send({ child_id: second.child_id })).status).toBe(200);
    expect((await expert.post(`/api/expert/classes/${id}/enrolments`).send({ child_id: '12' })).status).toBe(400);
    expect((await expert.post(`/api/expert/classes/${id}/enrolments`).send({ child_id: '999999' })).status).toBe(404);
    const child = await loginChild(t.agent(), fam);
    expect((await child.post(`/api/expert/classes/${id}/enrolments`).send({ child_id: fam.child.child_id })).status).toBe(403);
    expect((await t.agent().delete(`/api/expert/classes/${id}/enrolments/${second.child_id}`)).status).toBe(401);
    expect((await otherExpert.delete(`/api/expert/classes/${id}/enrolments/${second.child_id}`)).status).toBe(403);
    expect(await t.db.all('SELECT child_id FROM class_enrolments WHERE class_id = ?', [id])).toEqual([{ child_id: second.child_id }]);
  });
});
