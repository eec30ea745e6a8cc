import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CodeRunner, Language } from '../../src/code-runner/types.js';

/**
 * A small stand-in for a self-hosted Piston pool (engineer-man/piston, API v2) on 127.0.0.1:
 * `GET /api/v2/runtimes` and `POST /api/v2/execute`, with Piston's request checks and answer
 * shape. Programs really run, in our own bubblewrap sandbox; a test may script an answer instead
 * (time-outs, output limits, failures) with `respond`.
 */
export interface ExecuteBody {
  language: string;
  version: string;
  files: { name?: string; content: string }[];
  stdin?: string;
  run_timeout?: number;
  run_memory_limit?: number;
}

export interface FakePiston {
  url: string;
  requests: ExecuteBody[];
  runtimes: { language: string; version: string; aliases: string[] }[];
  respond: ((body: ExecuteBody) => { status: number; body: unknown } | undefined) | undefined;
  close(): Promise<void>;
}

export const PISTON_RUNTIMES = [
  { language: 'python', version: '3.12.0', aliases: ['py', 'python3'] },
  { language: 'javascript', version: '20.11.1', aliases: ['node-javascript', 'node-js', 'js'] },
];

const LANGUAGE_OF: Record<string, Language> = { python: 'python', py: 'python', javascript: 'javascript', js: 'javascript', node: 'javascript' };

export async function startFakePiston(sandbox: CodeRunner): Promise<FakePiston> {
  const fake: FakePiston = {
    url: '',
    requests: [],
    runtimes: [...PISTON_RUNTIMES],
    respond: undefined,
    close: async () => {},
  };
  const server = http.createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/api/v2/runtimes') return send(200, fake.runtimes);
    if (req.method !== 'POST' || req.url !== '/api/v2/execute') return send(404, { message: 'Not found' });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: ExecuteBody;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(400, { message: 'Invalid JSON' });
    }
    fake.requests.push(body);
    const scripted = fake.respond?.(body);
    if (scripted) return send(scripted.status, scripted.body);
    if (typeof body.language !== 'string' || typeof body.version !== 'string') return send(400, { message: 'language and version are required' });
    if (!Array.isArray(body.files) || !body.files.length || typeof body.files[0]?.content !== 'string') return send(400, { message: 'files is required as an array' });
    const runtime = fake.runtimes.find((r) => r.language === body.language || r.aliases.includes(body.language));
    const language = LANGUAGE_OF[body.language];
    if (!runtime || !language) return send(400, { message: `${body.language}-${body.version} runtime is unknown` });
    const r = await sandbox.run({ language, code: body.files[0].content, stdin: body.stdin ?? '', limits: body.run_timeout ? { wallMs: body.run_timeout } : undefined });
    const killed = r.signal !== null;
    send(200, {
      language: runtime.language,
      version: runtime.version,
      run: { stdout: r.stdout, stderr: r.stderr, output: r.stdout + r.stderr, code: killed ? null : r.exitCode, signal: r.signal },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
