import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type Agent, type TestApp } from '../helpers/app.js';
import type { RegisteredRoute } from '../../src/http/api.js';

/** Hostile values for every path parameter: traversal, encoded separators, overlong, wrong shape. */
const HOSTILE_PARAMS = ['..%2F..%2Fetc%2Fpasswd', '%00', 'a'.repeat(300), '123456789', 'abc%20def', '.hidden'];
/** Malformed bodies: wrong top-level type, wrong field types, nulls, deep nesting, huge strings. */
const BAD_BODIES: unknown[] = [
  [],
  'just a string',
  { video_id: 42, child_id: null, expert_id: { $gt: '' }, questions: 'none', segments: [{ x: 1 }] },
  { text: 'x'.repeat(20_000), expected: ['a'], user: { b: 1 }, url: 'javascript:alert(1)' },
  { a: { b: { c: { d: { e: { f: [[[[null]]]] } } } } } },
];

let t: TestApp;
const agents: Record<string, Agent> = {};

beforeAll(async () => {
  t = await startTestApp();
  const fam = await createFamily(t);
  agents.admin = await loginAdmin(t.agent());
  agents.expert = await loginExpert(t.agent(), fam.expert.code);
  agents.child = await loginChild(t.agent(), fam);
});
afterAll(async () => {
  await t.close();
});

const rolesFor = (r: RegisteredRoute) => (r.access === 'public' || r.access === 'authenticated' ? ['admin', 'expert', 'child'] : [...r.access]);

describe('bad input never causes a server error', () => {
  it('every route answers malformed bodies and hostile path values with 4xx, for every allowed role', async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const r of t.built.api.routes) {
      if (r.path === '/api/admin/verify-access' || r.path.endsWith('/login') || r.path === '/api/verify-password') continue; // throttled logins are covered in auth tests
      const paths = r.path.includes('{') ? HOSTILE_PARAMS.map((v) => r.path.replace(/\{[a-z_]+\}/g, v)) : [r.path];
      for (const role of rolesFor(r)) {
        for (const url of paths) {
          for (const body of r.method === 'get' ? [undefined] : BAD_BODIES) {
            calls++;
            const req = agents[role]![r.method](url);
            const res = await (body === undefined ? req : typeof body === 'string' ? req.set('content-type', 'application/json').send(body) : req.send(body as object));
            if (res.status >= 500) failures.push(`${role} ${r.method.toUpperCase()} ${url.slice(0, 80)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
            else if (res.status >= 400 && res.headers['content-type']?.includes('json')) {
              if (res.body.success !== false || typeof res.body.message !== 'string') failures.push(`${role} ${r.method} ${url.slice(0, 80)} -> ${res.status} without the error body`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // every route x role x path x body combination ran (guards against a filter that skips everything)
    expect(calls).toBeGreaterThan(1000);
  }, 180_000);
});
