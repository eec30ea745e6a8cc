import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../src/http/http-server.js';

/**
 * The service's HTTP server creates requests and responses on the app's own prototypes (see
 * src/http/http-server.ts). These tests check that the objects are exactly what Express would have
 * made them, on real sockets, so no Express feature notices the difference.
 */
describe('createHttpServer', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    const s = server;
    server = undefined;
    if (s) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });

  async function listen(app: express.Express): Promise<string> {
    server = createHttpServer(app);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("creates each request and response on the app's prototypes, which Express then leaves as they are", async () => {
    const app = express();
    const seen: { reqProto: boolean; resProto: boolean; reqIsMessage: boolean; resIsResponse: boolean }[] = [];
    // before Express's own setPrototypeOf (which would hide what the server built): a raw listener
    const base = await listen(app);
    server!.prependListener('request', (req, res) => {
      seen.push({
        reqProto: Object.getPrototypeOf(req) === app.request,
        resProto: Object.getPrototypeOf(res) === app.response,
        reqIsMessage: req instanceof http.IncomingMessage,
        resIsResponse: res instanceof http.ServerResponse,
      });
    });
    app.get('/x', (_req, res) => void res.json({ ok: true }));
    const r = await fetch(`${base}/x`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ok: true });
    expect(seen).toEqual([{ reqProto: true, resProto: true, reqIsMessage: true, resIsResponse: true }]);
  });

  it('serves Express features unchanged: params, query, bodies, cookies, redirects, errors, keep-alive', async () => {
    const app = express();
    app.use(express.json());
    app.get('/items/:id', (req, res) => void res.json({ id: req.params.id, q: req.query.q, ip: req.ip, secure: req.secure, host: req.hostname }));
    app.post('/echo', (req, res) => void res.status(201).cookie('c', 'v', { httpOnly: true }).json({ got: req.body }));
    app.get('/go', (_req, res) => res.redirect('/items/7'));
    app.get('/boom', () => {
      throw new Error('boom');
    });
    const base = await listen(app);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string, init?: { method?: string; body?: string }) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; socket: unknown }>((resolve, reject) => {
        const req = http.request(
          `${base}${path}`,
          { agent, method: init?.method ?? 'GET', headers: init?.body ? { 'content-type': 'application/json' } : {} },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, socket: req.socket }));
          },
        );
        req.on('error', reject);
        req.end(init?.body);
      });
    try {
      const a = await get('/items/42?q=red');
      expect(a.status).toBe(200);
      expect(JSON.parse(a.body)).toEqual({ id: '42', q: 'red', ip: '127.0.0.1', secure: false, host: '127.0.0.1' });
      const b = await get('/echo', { method: 'POST', body: JSON.stringify({ answer: 'a red ball' }) });
      expect(b.status).toBe(201);
      expect(JSON.parse(b.body)).toEqual({ got: { answer: 'a red ball' } });
      expect(b.headers['set-cookie']?.[0]).toMatch(/^c=v; Path=\/; HttpOnly/);
      const c = await get('/go');
      expect(c.status).toBe(302);
      expect(c.headers.location).toBe('/items/7');
      const d = await get('/boom');
      expect(d.status).toBe(500);
      const e = await get('/nothing');
      expect(e.status).toBe(404);
      // every request above went over the one kept-alive socket
      expect(new Set([a.socket, b.socket, c.socket, d.socket, e.socket]).size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('keeps the server options it is given', async () => {
    const app = express();
    app.get('/', (_req, res) => void res.send('ok'));
    server = createHttpServer(app, { maxHeaderSize: 1024 });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(base)).status).toBe(200);
    // a header larger than the limit is refused by Node's parser
    expect((await fetch(base, { headers: { 'x-big': 'a'.repeat(2048) } })).status).toBe(431);
  });
});
