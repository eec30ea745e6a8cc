import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type Agent, type TestApp } from '../helpers/app.js';
import type { RegisteredRoute } from '../../src/http/api.js';
import { accessMatrixMarkdown } from '../../src/meta/access-matrix.js';

/** Well-formed values for every path parameter, so only the access check can refuse. */
const SAMPLE_PARAMS: Record<string, string> = {
  video_id: 'abcdefghijk',
  child_id: '123456',
  expert_id: 'someone',
  parent_id: 'p_0123456789',
};
const fill = (p: string) => p.replace(/\{([a-z_]+)\}/g, (_m, name: string) => SAMPLE_PARAMS[name] ?? 'x1');

let t: TestApp;
let routes: RegisteredRoute[];
const agents: Record<string, Agent> = {};

beforeAll(async () => {
  t = await startTestApp();
  routes = t.built.api.routes;
  const fam = await createFamily(t);
  agents.anonymous = t.agent();
  agents.admin = await loginAdmin(t.agent());
  agents.expert = await loginExpert(t.agent(), fam.expert.code);
  agents.child = await loginChild(t.agent(), fam);
});
afterAll(async () => {
  await t.close();
});

const call = (agent: Agent, r: RegisteredRoute) => agent[r.method](fill(r.path)).send({});

describe('access control on every registered API route', () => {
  it('answers 401 to anonymous callers on every non-public route', async () => {
    const failures: string[] = [];
    for (const r of routes.filter((x) => x.access !== 'public')) {
      const res = await call(agents.anonymous!, r);
      if (res.status !== 401 || res.body.success !== false) failures.push(`${r.method} ${r.path} -> ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  for (const role of ['admin', 'expert', 'child'] as const) {
    it(`answers 403 to a ${role} session on every route not open to ${role}`, async () => {
      const failures: string[] = [];
      for (const r of routes.filter((x) => Array.isArray(x.access) && !x.access.includes(role))) {
        const res = await call(agents[role]!, r);
        if (res.status !== 403 || res.body.error !== 'wrong_role') failures.push(`${r.method} ${r.path} -> ${res.status}`);
      }
      expect(failures).toEqual([]);
    });
  }

  it('the README shows the current access matrix', () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
    expect(readme).toContain(accessMatrixMarkdown(routes));
  });
});
