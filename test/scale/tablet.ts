import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { startInstance, type InstanceProcess } from '../helpers/instance-process.js';

/**
 * Helpers of the several-instance tests (issue #18): a client that talks to whichever instance
 * it is given, as a tablet behind a load balancer would, and what an instance left on its disk.
 */
export interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & Buffer;
}

/** A tiny client with one cookie jar, sending each request to the instance it is given. */
export class Tablet {
  cookie = '';

  async call(
    inst: InstanceProcess,
    method: string,
    url: string,
    opts: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}), origin: inst.url };
    if (this.cookie) headers.cookie = this.cookie;
    let body: string | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(opts.form).toString();
    }
    const res = await fetch(inst.url + url, { method, headers, body, redirect: 'manual' });
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0]!;
    const type = res.headers.get('content-type') ?? '';
    const data = type.includes('json') ? await res.json() : Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, body: data as Record<string, unknown> & Buffer };
  }

  /** Opens a WebSocket on the instance with this tablet's session cookie and Origin. */
  connect(inst: InstanceProcess, url: string): Promise<LiveSocket> {
    const ws = new WebSocket(inst.url.replace(/^http/, 'ws') + url, { headers: { cookie: this.cookie, origin: inst.url } });
    const messages: Record<string, unknown>[] = [];
    const waiters: (() => void)[] = [];
    let closed = false;
    const wake = () => {
      for (const w of waiters.splice(0)) w();
    };
    ws.on('message', (data) => {
      messages.push(JSON.parse(data.toString()) as Record<string, unknown>);
      wake();
    });
    const done = new Promise<void>((resolve) =>
      ws.on('close', () => {
        closed = true;
        wake();
        resolve();
      }),
    );
    const live: LiveSocket = {
      messages,
      send: (msg) => ws.send(JSON.stringify(msg)),
      async until(pred) {
        for (;;) {
          const hit = messages.find(pred);
          if (hit) return hit;
          if (closed) throw new Error(`socket closed before the awaited message: ${JSON.stringify(messages)}`);
          await new Promise<void>((r) => waiters.push(r));
        }
      },
      async close() {
        ws.close(1000);
        await done;
      },
    };
    return new Promise((resolve, reject) => {
      ws.on('open', () => resolve(live));
      ws.on('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.on('error', reject);
    });
  }

  /**
   * Opens a WebSocket, sends `first`, and collects every JSON message until `until` says the run
   * is over; then closes it and returns them all.
   */
  async socket(inst: InstanceProcess, url: string, first: unknown, until: (msg: Record<string, unknown>) => boolean): Promise<Record<string, unknown>[]> {
    const live = await this.connect(inst, url);
    live.send(first);
    await live.until(until);
    await live.close();
    return live.messages;
  }
}

export interface LiveSocket {
  /** every JSON message received so far */
  messages: Record<string, unknown>[];
  send(msg: unknown): void;
  /** the first message (received or to come) that matches; throws if the socket closes first */
  until(pred: (msg: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * Polls GET /api/admin/jobs/{id} until the job has ended, alternating between the instances
 * given (the state must be readable from any of them); returns the last job record.
 */
export async function waitForJob(tablet: Tablet, instances: InstanceProcess[], jobId: string, tries = 600): Promise<Record<string, unknown>> {
  let job: Record<string, unknown> = {};
  for (let i = 0; i < tries; i++) {
    const res = await tablet.call(instances[i % instances.length]!, 'GET', `/api/admin/jobs/${jobId}`);
    if (res.status !== 200) throw new Error(`GET job ${jobId}: ${res.status} ${JSON.stringify(res.body)}`);
    job = (res.body.job ?? res.body) as Record<string, unknown>;
    if (['succeeded', 'failed', 'cancelled'].includes(String(job.state))) return job;
    await new Promise((r) => setTimeout(r, 200));
  }
  return job;
}

/** Every file under a folder (an instance's DATA_DIR), relative to it. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

/** What counts as a video's media on disk: anything under videos/, or a media or manifest file anywhere. */
export const isMediaFile = (rel: string): boolean => rel.startsWith('videos/') || /\.(mp4|webm|mkv|m4a|jpg|jpeg|png|webp|vtt|srt|json|csv)$/i.test(rel);

/**
 * Issue #18's district: two web instances that only enqueue (JOB_CONCURRENCY=0) and one worker.
 * A starts first (it runs the migrations), then B and the worker together. `webEnv` is added for
 * the web instances only.
 */
export async function startDistrict(env: Record<string, string>, webEnv: Record<string, string> = {}): Promise<{ a: InstanceProcess; b: InstanceProcess; worker: InstanceProcess }> {
  const a = await startInstance('server', { ...env, ...webEnv, JOB_CONCURRENCY: '0' });
  const [b, worker] = await Promise.all([
    startInstance('server', { ...env, ...webEnv, JOB_CONCURRENCY: '0' }),
    startInstance('worker', { ...env, JOB_CONCURRENCY: '1' }, { readyText: 'worker ready' }),
  ]);
  return { a, b, worker };
}

/** Stops the processes that were started (any may be undefined after a failed start) and removes their DATA_DIRs. */
export async function stopInstances(procs: readonly (InstanceProcess | undefined)[]): Promise<void> {
  const started = procs.filter((p): p is InstanceProcess => Boolean(p));
  await Promise.all(started.map((p) => p.stop()));
  for (const p of started) fs.rmSync(p.dataDir, { recursive: true, force: true });
}
