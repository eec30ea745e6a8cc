import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.0.3 document, version 0.2.0, with every registered route', async () => {
    const res = await t.agent().get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.0.3');
    expect(res.body.info.version).toBe('0.2.0');
    for (const r of t.built.api.routes) expect(res.body.paths[r.path]?.[r.method], `${r.method} ${r.path}`).toBeDefined();
  });

  it('documents request schemas from the zod definitions', async () => {
    const doc = (await t.agent().get('/api/openapi.json')).body;
    const create = doc.paths['/api/admin/experts'].post;
    const schema = create.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['expert_id', 'display_name', 'password']));
    expect(create.responses['401']).toBeDefined();
    const legacy = doc.paths['/api/verify-password'].post;
    expect(Object.keys(legacy.requestBody.content)).toEqual(['application/x-www-form-urlencoded', 'multipart/form-data']);
    expect(legacy.responses['422']).toBeDefined();
    const children = doc.paths['/api/admin/children'].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(children).toEqual(expect.arrayContaining(['query:expert_id', 'query:include_inactive']));
  });
});

describe('GET /health and unknown routes', () => {
  it('reports ok', async () => {
    expect((await t.agent().get('/health')).body).toEqual({ success: true, status: 'ok' });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.agent().get('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: 'route_not_found' });
  });
});
