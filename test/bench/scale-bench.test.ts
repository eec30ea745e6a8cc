import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../helpers/pg-cluster.js';
import { Cleanup } from '../../bench/lib/cleanup.js';
import { hasWrk, luaLongString, parseWrkOutput, runNodeLoad, runWrk, wrkScript } from '../../bench/lib/load.js';
import { HOLD_MS, measuredSeconds, wrkHoldLua } from '../../bench/lib/ramp-up.js';
import { activityPerRequest, backgroundPerSecond, formatActivity, pgActivity } from '../../bench/lib/pg-stats.js';
import { parseProcStat, processCpuUs, processTreeCpuUs, type ProcStat } from '../../bench/lib/proc-cpu.js';
import { attemptBodies, checkAnswerBodies, combineRounds, rowsVerdict, type Round } from '../../bench/lib/scale-report.js';
import { checkAnswerBody, saveQuizBody } from '../../src/quiz/quiz.schema.js';

/**
 * The pieces of `npm run bench:scale` (bench/scale.ts), without timing anything: the load
 * generators send what they are given, the /proc reader and the round arithmetic count right,
 * the bodies pass the routes' own schemas, and an interrupted bench cleans up.
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const segments = [
  { segment_range_start: 0, segment_range_end: 12, question: "What is the little pig's name?", answer: 'Penny' },
  { segment_range_start: 12, segment_range_end: 25, question: 'How did Penny feel?', answer: 'sad' },
];

/** A loopback server that records every request's method, cookie, content type and body. */
async function recorder() {
  const seen: { method: string; cookie?: string; type?: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, cookie: req.headers.cookie, type: req.headers['content-type'], body });
      // every third request is refused, so bad statuses are counted apart from answers
      res.statusCode = seen.length % 3 === 0 ? 403 : 200;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/check_answer`;
  return { seen, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('load generators', () => {
  const bodies = ['{"n":1}', '{"n":2,"s":"]]"}', '{"n":3}'];

  it('quotes any text as a Lua long string', () => {
    expect(luaLongString('abc')).toBe('[[abc]]');
    expect(luaLongString('a]]b')).toBe('[=[a]]b]=]');
    expect(luaLongString('a]]b]=]c')).toBe('[==[a]]b]=]c]==]');
  });

  it('writes a wrk script with the method, cookie, content type and every body, and reads its result line', () => {
    const script = wrkScript({ method: 'POST', cookie: 'kvq.sid=s%3Aabc', bodies });
    expect(script).toContain('wrk.method = [[POST]]');
    expect(script).toContain('wrk.headers["Cookie"] = [[kvq.sid=s%3Aabc]]');
    expect(script).toContain('wrk.headers["Content-Type"] = "application/json"');
    expect(script).toContain('[=[{"n":2,"s":"]]"}]=]');
    expect(parseWrkOutput('Running 1s test\nRESULT {"requests":120,"us":1000000,"p50":2500,"p99":9100,"status":4,"socket":1}\n')).toEqual({
      requests: 120,
      seconds: 1,
      p50: 2.5,
      p99: 9.1,
      badStatus: 4,
      socketErrors: 1,
    });
    expect(() => parseWrkOutput('wrk: connection refused')).toThrow(/no RESULT line/);
  });

  it("holds each connection's first request (the ramp-up) and takes the hold off the duration", () => {
    expect(wrkScript({ method: 'GET', bodies: [] })).not.toContain('delay');
    const script = wrkScript({ method: 'POST', bodies }, { connections: 25, ms: 300 });
    expect(script).toContain(wrkHoldLua(25, 300));
    expect(script).toContain('delay = function()');
    expect(script).toContain('if held < 25 then held = held + 1; return 300 end');
    expect(wrkHoldLua(25, 0)).toBe('');
    expect(HOLD_MS).toBe(300);
    expect(measuredSeconds(3_000_000, 300)).toBeCloseTo(2.7);
    expect(parseWrkOutput('RESULT {"requests":270,"us":3000000,"p50":2500,"p99":9100,"status":0,"socket":0}\n', 300).seconds).toBeCloseTo(2.7);
  });

  it.skipIf(!hasWrk())('drives a real server with wrk: POST bodies in turn, the cookie, bad statuses counted', async () => {
    const rec = await recorder();
    try {
      const r = await runWrk({ url: rec.url, method: 'POST', cookie: 'kvq.sid=abc', bodies }, 2, 1);
      expect(r.requests).toBeGreaterThan(0);
      // the server saw every answered request (and perhaps a few still in flight at the end)
      expect(rec.seen.length).toBeGreaterThanOrEqual(r.requests);
      expect(new Set(rec.seen.map((s) => s.body))).toEqual(new Set(bodies));
      expect(rec.seen.every((s) => s.method === 'POST' && s.cookie === 'kvq.sid=abc' && s.type === 'application/json')).toBe(true);
      expect(r.badStatus).toBeGreaterThan(0);
      expect(r.socketErrors).toBe(0);
    } finally {
      await rec.close();
    }
  });

  it.skipIf(!hasWrk())('with the hold, wrk sends no request before every connection is accepted', async () => {
    // the server's log of connections and requests, in order (without the hold, runWrk(..., 0),
    // the first request came after 3 of the 8 connections here: Node accepts one per loop turn)
    const events: string[] = [];
    const server = http.createServer((req, res) => {
      events.push('request');
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    server.on('connection', () => events.push('connection'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
      const r = await runWrk({ url, method: 'GET', bodies: [] }, 8, 1);
      expect(r.requests).toBeGreaterThan(0);
      expect(r.socketErrors).toBe(0);
      // wrk's own start-up probe is one more connection (wrk.lua connects once to check the address)
      const firstRequest = events.indexOf('request');
      expect(firstRequest).toBeGreaterThanOrEqual(8);
      expect(events.slice(firstRequest)).not.toContain('connection');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('drives a real server from Node when wrk is not there: the same counts', async () => {
    const rec = await recorder();
    try {
      const r = await runNodeLoad({ url: rec.url, method: 'POST', cookie: 'kvq.sid=abc', bodies }, 2, 0.3);
      expect(r.requests).toBe(rec.seen.length);
      expect(r.badStatus).toBe(Math.floor(rec.seen.length / 3));
      expect(new Set(rec.seen.map((s) => s.body))).toEqual(new Set(bodies));
      expect(rec.seen.every((s) => s.cookie === 'kvq.sid=abc' && s.type === 'application/json')).toBe(true);
    } finally {
      await rec.close();
    }
  });
});

describe('CPU from /proc', () => {
  it('reads the fields after a command name holding spaces and parentheses', () => {
    const line = '4242 (my (odd) name) S 17 4242 4242 0 -1 4194560 500 0 0 0 250 30 7 3 20 0 1 0 100 0 0';
    expect(parseProcStat(line)).toEqual({ pid: 4242, ppid: 17, ticks: 280, childTicks: 10 });
    expect(() => parseProcStat('garbage')).toThrow();
  });

  it('sums a process tree with its reaped children, and ignores other processes', () => {
    const stats: ProcStat[] = [
      { pid: 10, ppid: 1, ticks: 5, childTicks: 20 },
      { pid: 11, ppid: 10, ticks: 100, childTicks: 0 },
      { pid: 12, ppid: 10, ticks: 50, childTicks: 1 },
      { pid: 13, ppid: 11, ticks: 999, childTicks: 0 }, // a grandchild: not a PostgreSQL backend
      { pid: 20, ppid: 1, ticks: 777, childTicks: 0 },
    ];
    const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
    expect(processTreeCpuUs(10, stats)).toBeCloseTo(((5 + 20 + 100 + 50 + 1) * 1e6) / ticks);
    expect(processTreeCpuUs(99, stats)).toBeUndefined();
  });

  it("reads a live process's CPU, which grows as it works, and undefined for a gone one", () => {
    const before = processCpuUs(process.pid)!;
    let x = 0;
    // burn at least two clock ticks of CPU (the counter's unit)
    for (const t0 = process.cpuUsage().user; process.cpuUsage().user - t0 < 50_000; ) x += Math.sqrt(x + 1);
    expect(x).toBeGreaterThan(0);
    expect(processCpuUs(process.pid)!).toBeGreaterThan(before);
    expect(processCpuUs(2 ** 22 + 12345)).toBeUndefined();
  });
});

describe('rounds and bodies', () => {
  const load = (requests: number, seconds: number, p99: number, badStatus = 0) => ({ requests, seconds, p50: p99 / 2, p99, badStatus, socketErrors: 0 });

  it('sums two instances per round, reports the worse p99 and the median round, and CPU per answered request', () => {
    const rounds: Round[] = [
      { loads: [load(100, 1, 10), load(50, 1.1, 30)], webUs: 3000, dbUs: 1500, rows: 160 },
      { loads: [load(100, 1, 20), load(100, 1, 5, 2)], webUs: 4000, dbUs: 500, rows: 200 },
      { loads: [load(40, 1, 50), load(60, 0.9, 1)], webUs: 3000, dbUs: 1000, rows: 100 },
    ];
    const c = combineRounds(rounds);
    expect(c.requests).toBe(450);
    expect(c.rps).toBeCloseTo(450 / 3.1);
    expect(c.p99).toBe(30); // round maxima 30, 20, 50: the median
    expect(c.errors).toBe(2);
    expect(c.acknowledged).toBe(448);
    expect(c.webUsPerRequest).toBeCloseTo(10000 / 450);
    expect(c.dbUsPerRequest).toBeCloseTo(3000 / 450);
    expect(c.rowsLanded).toBe(460);
    expect(combineRounds([{ loads: [load(10, 1, 1)], webUs: 1 }]).dbUsPerRequest).toBeUndefined();
  });

  it('calls rows ok only between the acknowledged count and that plus the requests in flight', () => {
    expect(rowsVerdict({ rowsLanded: 100, acknowledged: 100, inFlight: 150 })).toBe('ok');
    expect(rowsVerdict({ rowsLanded: 250, acknowledged: 100, inFlight: 150 })).toBe('ok');
    expect(rowsVerdict({ rowsLanded: 99, acknowledged: 100, inFlight: 150 })).toBe('rows missing');
    expect(rowsVerdict({ rowsLanded: 251, acknowledged: 100, inFlight: 150 })).toBe('more rows than requests');
  });

  it("builds bodies the routes' own schemas accept", () => {
    const checks = checkAnswerBodies(segments).map((b) => JSON.parse(b));
    expect(checks).toHaveLength(6);
    for (const body of checks) expect(checkAnswerBody.safeParse(body).success).toBe(true);
    const saves = attemptBodies('123456', 'sample-red-ball', segments).map((b) => JSON.parse(b));
    expect(saves.map((s) => s.details.map((d: { status: string }) => d.status))).toEqual([
      ['correct', 'correct'],
      ['correct', 'wrong'],
      ['wrong', 'wrong'],
    ]);
    for (const body of saves) expect(saveQuizBody.safeParse(body).success, JSON.stringify(saveQuizBody.safeParse(body).error)).toBe(true);
  });
});

describe('cleanup', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('runs every step once, newest first, past a failing one', async () => {
    const order: string[] = [];
    const c = new Cleanup();
    c.add('first', () => order.push('first'));
    c.add('broken', () => {
      throw new Error('boom');
    });
    c.add('last', async () => order.push('last'));
    const [a, b] = await Promise.all([c.run(), c.run()]);
    expect(order).toEqual(['last', 'first']);
    expect(a).toEqual(['broken: boom']);
    expect(b).toBe(a);
  });

  it('on Ctrl-C ends the child process and removes the temp folder, then exits with 130', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-cleanup-test-'));
    dirs.push(dir);
    const script = path.join(dir, 'interrupted.ts');
    const cleanupModule = path.join(ROOT, 'bench', 'lib', 'cleanup.ts');
    fs.writeFileSync(
      script,
      `import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { Cleanup } from ${JSON.stringify(cleanupModule)};
const c = new Cleanup();
c.onSignals();
const temp = fs.mkdtempSync(${JSON.stringify(path.join(dir, 'work-'))});
c.add('temp', () => fs.rmSync(temp, { recursive: true, force: true }));
const sleeper = spawn('sleep', ['300'], { stdio: 'ignore' });
c.add('sleeper', () => new Promise((r) => { sleeper.once('exit', r); sleeper.kill(); }));
console.log(JSON.stringify({ temp, sleeper: sleeper.pid }));
setInterval(() => undefined, 1000);
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const started = await new Promise<{ temp: string; sleeper: number }>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
      });
      child.once('exit', (code) => reject(new Error(`exited early: ${code}`)));
    });
    expect(fs.existsSync(started.temp)).toBe(true);
    const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGINT');
    expect(await exit).toBe(130);
    expect(fs.existsSync(started.temp)).toBe(false);
    expect(() => process.kill(started.sleeper, 0)).toThrow(); // the child process is gone
  });
});

describe("PostgreSQL's work per request", () => {
  const pgUrl = inject('pgUrl');

  it('divides the differences by the requests', () => {
    const before = { transactions: 100, inserted: 10, updated: 0, deleted: 0, indexScans: 50, seqScans: 1 };
    const after = { transactions: 400, inserted: 60, updated: 10, deleted: 0, indexScans: 250, seqScans: 1 };
    const per = activityPerRequest(before, after, 50);
    expect(per).toEqual({ transactions: 6, inserted: 1, updated: 0.2, deleted: 0, indexScans: 4, seqScans: 0 });
    const perSecond = { transactions: 2, inserted: 0, updated: 0.1, deleted: 0, indexScans: 1, seqScans: 0 };
    // 10 s of background: 20 transactions, 1 update, 10 index scans less over the 50 requests
    expect(activityPerRequest(before, after, 50, { perSecond, seconds: 10 })).toEqual({
      transactions: 5.6,
      inserted: 1,
      updated: 0.18,
      deleted: 0,
      indexScans: 3.8,
      seqScans: 0,
    });
    expect(backgroundPerSecond(before, after, 100)).toEqual({ transactions: 3, inserted: 0.5, updated: 0.1, deleted: 0, indexScans: 2, seqScans: 0 });
    expect(formatActivity(per)).toBe('6.00 transactions, 1.00 rows inserted, 0.20 updated, 0.00 deleted, 4.00 index scans, 0.00 sequential scans');
  });

  it.skipIf(!pgUrl)("reads another connection's transactions and rows once it has published them", async () => {
    const db = await createTestDatabase(pgUrl, 'stats');
    const reader = new pg.Client({ connectionString: db.url });
    const writer = new pg.Client({ connectionString: db.url });
    try {
      await reader.connect();
      await writer.connect();
      // the writer publishes its counts before answering this (no waiting on PostgreSQL's own schedule)
      const flush = () => writer.query('SELECT pg_stat_force_next_flush()');
      await writer.query('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
      await flush();
      const before = await pgActivity(reader);
      for (let i = 0; i < 10; i++) await writer.query('INSERT INTO t (id, v) VALUES ($1, $2)', [i, `row ${i}`]);
      await writer.query('UPDATE t SET v = $1 WHERE id < 3', ['changed']);
      await flush();
      const d = activityPerRequest(before, await pgActivity(reader), 1);
      expect(d.inserted).toBe(10);
      expect(d.updated).toBe(3);
      // the writer's 11 and its flush, plus perhaps the reader's own queries
      expect(d.transactions).toBeGreaterThanOrEqual(12);
      expect(d.transactions).toBeLessThan(20);
    } finally {
      await reader.end().catch(() => undefined);
      await writer.end().catch(() => undefined);
      await db.drop();
    }
  });
});
