import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { HOLD_MS, measuredSeconds, wrkHoldLua } from './ramp-up.js';

/**
 * HTTP load for benches: wrk (Debian's, a C program in its own process, light on a 2-core
 * machine) with a Lua script for POST bodies and the session cookie, or, without wrk, a loop of
 * keep-alive requests in this process. Either way the result is counts and percentiles, never
 * an assertion on time.
 */

export interface LoadTarget {
  /** full URL, e.g. http://127.0.0.1:3000/api/check_answer */
  url: string;
  method: 'GET' | 'POST';
  cookie?: string;
  /** JSON bodies, sent in turn (empty for GET) */
  bodies: string[];
}

export interface LoadResult {
  /** responses received */
  requests: number;
  seconds: number;
  /** milliseconds */
  p50: number;
  p99: number;
  /** responses with a status >= 400 (wrk's "status errors"): the rest were answered 2xx/3xx */
  badStatus: number;
  /** connect, read, write errors and timeouts */
  socketErrors: number;
  /** the slowest request, milliseconds (wrk only) */
  max?: number;
}

export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

/** A Lua long string holding `s` verbatim: the `=` level is one that `s` does not close. */
export function luaLongString(s: string): string {
  let eq = '';
  while (s.includes(`]${eq}]`)) eq += '=';
  return `[${eq}[${s}]${eq}]`;
}

/**
 * wrk's script: the method, cookie and content type on every request, the bodies in turn, and
 * at the end one line `RESULT {json}` with the counts and the p50/p99 in microseconds. With
 * `hold`, each of its connections' first request waits hold.ms (the ramp-up: ramp-up.ts).
 */
export function wrkScript(target: Pick<LoadTarget, 'method' | 'cookie' | 'bodies'>, hold?: { connections: number; ms: number }): string {
  const lines = [`wrk.method = ${luaLongString(target.method)}`];
  if (hold && hold.ms > 0) lines.push(wrkHoldLua(hold.connections, hold.ms));
  if (target.cookie) lines.push(`wrk.headers["Cookie"] = ${luaLongString(target.cookie)}`);
  if (target.bodies.length) lines.push('wrk.headers["Content-Type"] = "application/json"');
  lines.push(
    `local bodies = { ${target.bodies.map(luaLongString).join(', ')} }`,
    'local counter = 0',
    'request = function()',
    '  counter = counter + 1',
    '  return wrk.format(nil, nil, nil, bodies[(counter % math.max(#bodies, 1)) + 1])',
    'end',
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    `  io.write(string.format('RESULT {"requests":%d,"us":%d,"p50":%d,"p99":%d,"max":%d,"status":%d,"socket":%d}\\n',`,
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,',
    '    e.status, e.connect + e.read + e.write + e.timeout))',
    'end',
  );
  return `${lines.join('\n')}\n`;
}

/** The `RESULT` line of wrkScript's output as a LoadResult; `holdMs` (the script's hold) is taken off the duration. */
export function parseWrkOutput(out: string, holdMs = 0): LoadResult {
  const line = /^RESULT (\{.*\})$/m.exec(out)?.[1];
  if (!line) throw new Error(`no RESULT line in wrk's output:\n${out.slice(0, 2000)}`);
  const r = JSON.parse(line) as { requests: number; us: number; p50: number; p99: number; max?: number; status: number; socket: number };
  return {
    requests: r.requests,
    seconds: measuredSeconds(r.us, holdMs),
    p50: r.p50 / 1000,
    p99: r.p99 / 1000,
    max: r.max === undefined ? undefined : r.max / 1000,
    badStatus: r.status,
    socketErrors: r.socket,
  };
}

/** Child processes of running loads, so a Ctrl-C can end them (see Cleanup). */
export const runningLoads = new Set<import('node:child_process').ChildProcess>();

/**
 * One wrk process: one thread, `connections` keep-alive connections, whole `seconds` (at least 1),
 * each connection's first request held `holdMs` (HOLD_MS unless told: ramp-up.ts) and the hold
 * taken off the duration, so neither the throughput nor the percentiles include the ramp-up.
 */
export async function runWrk(target: LoadTarget, connections: number, seconds: number, holdMs = HOLD_MS): Promise<LoadResult> {
  const script = path.join(os.tmpdir(), `kvq-bench-wrk-${process.pid}-${Math.random().toString(36).slice(2)}.lua`);
  fs.writeFileSync(script, wrkScript(target, { connections, ms: holdMs }));
  try {
    const args = ['-t1', `-c${connections}`, `-d${Math.max(1, Math.round(seconds))}s`, '--timeout', '10s', '-s', script, target.url];
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
      runningLoads.add(child);
      let text = '';
      child.stdout.on('data', (c: Buffer) => (text += c.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        runningLoads.delete(child);
        if (code === 0) resolve(text);
        else reject(new Error(`wrk exited with ${code}:\n${text}`));
      });
    });
    return parseWrkOutput(out, holdMs);
  } finally {
    fs.rmSync(script, { force: true });
  }
}

/** The same load from this process: `connections` loops, each sending its next request when the last is answered. */
export async function runNodeLoad(target: LoadTarget, connections: number, seconds: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let badStatus = 0;
  let socketErrors = 0;
  let sent = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  const loop = async () => {
    while (performance.now() < until) {
      const body = target.bodies.length ? target.bodies[sent++ % target.bodies.length] : undefined;
      const t0 = performance.now();
      const status = await send(target, agent, body).catch(() => 0);
      if (status === 0) socketErrors++;
      else {
        latencies.push(performance.now() - t0);
        if (status >= 400) badStatus++;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, loop));
  } finally {
    agent.destroy();
  }
  const sorted = latencies.sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  return { requests: sorted.length, seconds: (performance.now() - started) / 1000, p50: pct(0.5), p99: pct(0.99), badStatus, socketErrors };
}

function send(target: LoadTarget, agent: http.Agent, body: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (target.cookie) headers.cookie = target.cookie;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const req = http.request(target.url, { method: target.method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}
