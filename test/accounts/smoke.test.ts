import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginChild, startTestApp, type TestApp } from '../helpers/app.js';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(); });
  afterAll(async () => { await t.close(); });
  it('family flow works', async () => {
    const fam = await createFamily(t);
    const a = await loginChild(t.agent(), fam);
    const s = await a.get('/api/learners/session');
    expect(s.body.child.child_id).toBe(fam.child.child_id);
    const doc = await t.agent().get('/api/openapi.json');
    expect(doc.body.openapi).toBe('3.0.3');
  });
});
