import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type TestApp, type TestFamily } from '../helpers/app.js';
import { createClass, createProblem, enrol } from './factories.js';

let t: TestApp;
let fam: TestFamily;
let other: TestFamily;
let classId: number;
let problemId: number;

beforeAll(async () => {
  t = await startTestApp();
  fam = await createFamily(t);
  other = await createFamily(t);
  const expert = await loginExpert(t.agent(), fam.expert.code);
  classId = await createClass(expert, 'Page class');
  await enrol(expert, classId, fam.child.child_id);
  problemId = await createProblem(expert, classId);
});
afterAll(() => t.close());

describe('code quiz pages', () => {
  it("serve the child's pages to the child, with the bundled editor and no caching", async () => {
    const child = await loginChild(t.agent(), fam);
    const list = await child.get('/kids/code');
    expect(list.status).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.text).toContain(`data-child-id="${fam.child.child_id}"`);
    const page = await child.get(`/kids/code/${problemId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`${t.app.locals.staticBase}/code/build/kids-code.js`);
    expect(page.text).toContain(`data-problem-id="${problemId}"`);
    expect(page.text).toContain('Help me');
    expect(page.text).not.toContain('range(1, n + 1)');
  });

  it('send everyone else where they belong', async () => {
    expect((await t.agent().get('/kids/code')).headers.location).toBe('/kids');
    expect((await t.agent().get(`/kids/code/${problemId}`)).headers.location).toBe('/kids');
    const family = t.agent();
    await family.post('/api/learners/parents/login').send({ access_code: fam.parentCode });
    expect((await family.get('/kids/code')).headers.location).toBe('/kids/profiles');
    // a child of another family, not enrolled: back to their own list
    const stranger = await loginChild(t.agent(), other);
    expect((await stranger.get(`/kids/code/${problemId}`)).headers.location).toBe('/kids/code');
    expect((await stranger.get('/kids/code/..%2F..%2Fetc')).headers.location).toBe('/kids/code');
    expect((await t.agent().get('/expert/code')).headers.location).toBe('/expert');
  });

  it("serve the expert's pages to the class's expert only; the expert may try a problem", async () => {
    const expert = await loginExpert(t.agent(), fam.expert.code);
    const classes = await expert.get('/expert/code');
    expect(classes.status).toBe(200);
    expect(classes.text).toContain(`${t.app.locals.staticBase}/code/expert-classes.js`);
    const cls = await expert.get(`/expert/code/classes/${classId}`);
    expect(cls.status).toBe(200);
    expect(cls.text).toContain('Page class');
    expect((await expert.get(`/kids/code/${problemId}`)).text).toContain('data-preview="1"');
    const otherExpert = await loginExpert(t.agent(), other.expert.code);
    expect((await otherExpert.get(`/expert/code/classes/${classId}`)).headers.location).toBe('/expert/code');
    expect((await otherExpert.get(`/kids/code/${problemId}`)).headers.location).toBe('/expert/code');
    const admin = await loginAdmin(t.agent());
    expect((await admin.get('/expert/code')).headers.location).toBe('/expert');
  });
});
