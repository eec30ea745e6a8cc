import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Api } from '../../src/http/api.js';
import { apiNotFound, errorHandler } from '../../src/http/error-handler.js';
import { createLogger } from '../../src/logger.js';

/**
 * The route table groups API routes in one sub-router per `/api/<prefix>` (fewer layers walked
 * per request). These check that grouping changes nothing a client sees: which route answers,
 * path parameters, registration order inside a group, unknown paths, and the route pattern the
 * request log reads.
 */
function app() {
  const api = new Api();
  const ex = express();
  ex.use(express.json());
  ex.use(api.router);
  const seen = (name: string) => (input: { params: unknown }, _req: express.Request, res: express.Response) => ({ name, params: input.params, route: res.locals.route });
  const id = z.object({ id: z.string().regex(/^[a-z0-9-]+$/) });
  api.route({ method: 'get', path: '/api/things/{id}', summary: 't', tags: [], access: 'public', params: id }, seen('thing'));
  // registered after the parameter route in the same group: as with one flat router, the first match wins
  api.route({ method: 'get', path: '/api/things/special', summary: 't', tags: [], access: 'public' }, seen('special'));
  api.route({ method: 'get', path: '/api/things/{id}/parts', summary: 't', tags: [], access: 'public', params: id }, seen('parts'));
  api.route({ method: 'post', path: '/api/things', summary: 't', tags: [], access: 'public' }, seen('create'));
  api.route({ method: 'get', path: '/api/other', summary: 't', tags: [], access: 'public' }, seen('other'));
  api.route({ method: 'get', path: '/health', summary: 't', tags: [], access: 'public' }, seen('health'));
  ex.use(apiNotFound);
  ex.use(errorHandler(createLogger('silent')));
  return { api, ex };
}

describe('Api route groups', () => {
  it('answers every route with its own handler, parameters and full pattern', async () => {
    const { ex, api } = app();
    expect(api.routes.map((r) => r.expressPath)).toEqual(['/api/things/:id', '/api/things/special', '/api/things/:id/parts', '/api/things', '/api/other', '/health']);
    expect((await request(ex).get('/api/things/a-1')).body).toEqual({ name: 'thing', params: { id: 'a-1' }, route: '/api/things/:id' });
    expect((await request(ex).get('/api/things/special')).body).toMatchObject({ name: 'thing', params: { id: 'special' } });
    expect((await request(ex).get('/api/things/b-2/parts')).body).toEqual({ name: 'parts', params: { id: 'b-2' }, route: '/api/things/:id/parts' });
    expect((await request(ex).post('/api/things').send({})).body).toMatchObject({ name: 'create', route: '/api/things' });
    expect((await request(ex).get('/api/other')).body).toMatchObject({ name: 'other', route: '/api/other' });
    expect((await request(ex).get('/health')).body).toMatchObject({ name: 'health', route: '/health' });
  });

  it('falls through to the not-found handler for unknown paths, methods and near-miss prefixes', async () => {
    const { ex } = app();
    for (const [method, path] of [['get', '/api/things'], ['get', '/api/thingsx/1'], ['get', '/api/things/a/b/c'], ['delete', '/api/things/a-1'], ['get', '/api/nothing']] as const) {
      const res = await request(ex)[method](path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: 'route_not_found' });
    }
  });

  it('validates path parameters inside a group as before', async () => {
    const { ex } = app();
    const res = await request(ex).get('/api/things/BAD!').set('Accept', 'application/json');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'validation_error' });
  });
});
