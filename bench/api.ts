/**
 * API throughput and p99 latency under concurrent connections:
 *   npx tsx bench/api.ts [--seconds=6] [--concurrency=50] [--generator=wrk|node]
 *   (seconds per route, over 3 alternating rounds)
 * Builds dist/ and starts the real app from it, as `npm start` runs it (temp data dir, bundled
 * sample imported), and a bare Express handler on 127.0.0.1, each server in its own worker
 * thread, then drives GET /api/final-questions/{sample} and POST /api/check_answer with 50
 * keep-alive connections, and prints each route against the bare
 * handler measured in the same run. The bare handler is served twice: by a stock
 * `http.createServer(app)` (the baseline issue #16 set, "a bare Express handler") and by the
 * service's own server (src/http/http-server.ts, which creates requests on Express's prototypes and
 * makes every Express response cheaper, the bare one included); both ratios are printed. Each server
 * has a worker (a V8 isolate) of its own: in one isolate, the stock server's per-request prototype
 * swaps also slowed the other servers' code (measured: the service's server fell below the stock
 * one), so sharing would measure each side with the other's cost. The load comes from
 * bench/lib/load.ts (as bench:scale's): `wrk` (Debian's, a C program: much lighter than Node on
 * the same two cores) when it is installed, else a bounded loop of requests in this process's
 * main thread; the output says which. Exits 1 when a request fails.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import express from 'express';
import { hasWrk, runNodeLoad, runWrk, type LoadTarget } from './lib/load.js';
import { HOLD_MS } from './lib/ramp-up.js';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const SECONDS = arg('seconds', 6);
const ROUNDS = 3;
const CONCURRENCY = arg('concurrency', 50);
const GENERATOR = process.argv.find((a) => a.startsWith('--generator='))?.split('=')[1] ?? (hasWrk() ? 'wrk' : 'node');
const ADMIN_PASSWORD = 'bench-admin-password';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The built module (dist/) of a source file under src/: the bench serves the code `npm start`
 * runs (esbuild's output, no tsx loader; tsx also wraps every function it creates in a naming
 * helper, which measured 5-8% of check_answer's CPU), typed as its source.
 */
const builtModule = <T>(srcPath: string): Promise<T> => import(pathToFileURL(path.join(ROOT, 'dist', srcPath)).href) as Promise<T>;

interface Ports {
  app: number;
  /** the bare handler on a stock http.createServer(app) */
  bare: number;
  /** the same bare handler on the service's server (createHttpServer) */
  bareService: number;
  videoId: string;
  segments: number;
  seeded: boolean;
  dataDir: string;
}

type Role = 'app' | 'bare' | 'bareService';
interface Served {
  port: number;
  videoId?: string;
  segments?: number;
  seeded?: boolean;
  dataDir?: string;
}

async function main(): Promise<void> {
  // The worker runs this same TypeScript file: it registers tsx's loader first, then imports it.
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsxApi)}).then((api) => { api.register(); return import(${JSON.stringify(import.meta.url)}); });`;
  // what `npm start` runs with (Express's production settings); the worker copies this env
  process.env.NODE_ENV ??= 'production';
  // and what it runs: dist/, built from the current sources when they are newer (about a second)
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stderr}`);
  const workers: Worker[] = [];
  const start = (role: Role) =>
    new Promise<Served>((resolve, reject) => {
      const worker = new Worker(boot, { eval: true, workerData: { role } });
      workers.push(worker);
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  const [app, bare, bareService] = await Promise.all([start('app'), start('bare'), start('bareService')]);
  const ports: Ports = {
    app: app.port,
    bare: bare.port,
    bareService: bareService.port,
    videoId: app.videoId!,
    segments: app.segments!,
    seeded: app.seeded!,
    dataDir: app.dataDir!,
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    const cookie = await login(ports.app, agent);
    const answers = [
      { expected: 'a red ball', user: 'um the red ball', question: 'What did Penny find?' },
      { expected: 'three', user: 'tree', question: 'How many ducks were there?' },
      { expected: 'happy', user: 'she was so glad', question: 'How did Penny feel?' },
      { expected: 'pink and purple', user: 'pink', question: 'What colors were the flowers?' },
    ];
    const targets: Target[] = [
      { name: 'bare GET (baseline, stock server)', port: ports.bare, method: 'GET', path: '/bare' },
      { name: "bare GET (the service's server)", port: ports.bareService, method: 'GET', path: '/bare' },
      {
        name: `GET /api/final-questions/${ports.videoId}`,
        port: ports.app,
        method: 'GET',
        path: `/api/final-questions/${ports.videoId}?companion=bunny`,
        cookie,
      },
      { name: 'bare POST (baseline, stock server)', port: ports.bare, method: 'POST', path: '/bare', body: () => JSON.stringify(answers[0]) },
      { name: "bare POST (the service's server)", port: ports.bareService, method: 'POST', path: '/bare', body: () => JSON.stringify(answers[0]) },
      {
        name: 'POST /api/check_answer',
        port: ports.app,
        method: 'POST',
        path: '/api/check_answer',
        cookie,
        body: (i) => JSON.stringify(answers[i % answers.length]),
      },
    ];
    const load =
      GENERATOR === 'wrk'
        ? 'wrk (one thread, a separate process)'
        : `Node http client in the main thread (${hasWrk() ? '--generator=node' : 'wrk not installed'})`;
    console.log(
      `API bench: ${CONCURRENCY} concurrent keep-alive connections, ${SECONDS} s per route, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}`,
    );
    console.log(`load generator: ${load}; servers: built code (dist/, as npm start runs it), NODE_ENV=${process.env.NODE_ENV}`);
    console.log(`video ${ports.videoId} (${ports.seeded ? 'seeded by the bench' : 'bundled sample'}), ${ports.segments} final-question segments\n`);
    // warm-up (on a busy machine a short round may finish nothing: that is fine here)
    for (const target of targets) await run(target, 0.5).catch(() => undefined);
    // Rounds alternate the routes with their baselines, so a busy moment of the machine
    // lands on both sides of a ratio rather than on one route.
    const samples = targets.map(() => [] as Result[]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, target] of targets.entries()) samples[i]!.push(await run(target, SECONDS / ROUNDS));
    }
    const results = samples.map(combine);
    targets.forEach((target, i) => {
      const r = results[i]!;
      const cpu = r.cpuUs === undefined ? '' : `   CPU ${fmt(r.cpuUs, 0).padStart(5)} us/req`;
      console.log(
        `${target.name.padEnd(44)} ${fmt(r.rps, 0).padStart(8)} req/s   p50 ${fmt(r.p50, 2).padStart(6)} ms   p99 ${fmt(r.p99, 2).padStart(7)} ms${cpu}   errors ${r.errors}`,
      );
    });
    const [bareGet, bareGetService, fq, barePost, barePostService, check] = results as Result[] as [Result, Result, Result, Result, Result, Result];
    console.log(`\n(p50 and p99: the median of the ${ROUNDS} rounds' own percentiles)`);
    console.log('ratios against the bare handler on a stock server (the baseline of issue #16; same run):');
    console.log(`  final-questions: throughput ${fmt(fq.rps / bareGet.rps, 2)}x, p99 ${fmt(fq.p99 / bareGet.p99, 2)}x`);
    console.log(`  check_answer:    throughput ${fmt(check.rps / barePost.rps, 2)}x, p99 ${fmt(check.p99 / barePost.p99, 2)}x`);
    console.log("ratios against the bare handler on the service's own server (what the routes add to Express's floor):");
    console.log(`  final-questions: throughput ${fmt(fq.rps / bareGetService.rps, 2)}x`);
    console.log(`  check_answer:    throughput ${fmt(check.rps / barePostService.rps, 2)}x`);
    if (fq.cpuUs && check.cpuUs && bareGet.cpuUs && barePost.cpuUs) {
      // the server's CPU per request (the process serves; wrk runs apart): steadier than req/s
      // when other work shares the cores, since time spent waiting for a core is not counted
      console.log('server CPU per request against the bare handler (bare / route; 1 = as cheap as bare):');
      console.log(`  final-questions: ${fmt(bareGet.cpuUs / fq.cpuUs, 2)}x (${fmt(fq.cpuUs, 0)} us against ${fmt(bareGet.cpuUs, 0)} us)`);
      console.log(`  check_answer:    ${fmt(barePost.cpuUs / check.cpuUs, 2)}x (${fmt(check.cpuUs, 0)} us against ${fmt(barePost.cpuUs, 0)} us)`);
    }
    if (GENERATOR === 'wrk') {
      // not hidden: what the first requests on 50 connections opened at once wait (see bench/lib/ramp-up.ts)
      console.log(`\nramp-up: ${CONCURRENCY} connections opened at once, 1 s without the hold (Node accepts one connection per event-loop turn):`);
      for (const target of targets) {
        const r = await run(target, 1, false);
        console.log(
          `  ${target.name.padEnd(42)} p50 ${fmt(r.p50, 2).padStart(6)} ms   p99 ${fmt(r.p99, 2).padStart(7)} ms   max ${fmt(r.max ?? 0, 0).padStart(5)} ms`,
        );
      }
    }
    await transferredBytes(ports.app, agent);
    const errors = results.reduce((n, r) => n + r.errors, 0);
    if (errors > 0) console.log(`\nFAIL: ${errors} requests failed`);
    process.exitCode = errors > 0 ? 1 : 0;
  } finally {
    agent.destroy();
    await Promise.all(workers.map((w) => w.terminate()));
    fs.rmSync(ports.dataDir, { recursive: true, force: true });
  }
}

interface Target {
  name: string;
  port: number;
  method: 'GET' | 'POST';
  path: string;
  cookie?: string;
  body?: (i: number) => string;
}

interface Result {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** the slowest request (wrk only) */
  max?: number;
  /** this process's CPU time (all threads) per request, microseconds: with wrk, the server's */
  cpuUs?: number;
}

/** The rounds of one target: throughput over all of them, the median round's percentiles. */
function combine(rounds: Result[]): Result {
  const requests = rounds.reduce((n, r) => n + r.requests, 0);
  const seconds = rounds.reduce((n, r) => n + r.seconds, 0);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  return {
    requests,
    seconds,
    rps: requests / seconds,
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    cpuUs: rounds.every((r) => r.cpuUs !== undefined) ? rounds.reduce((n, r) => n + r.cpuUs! * r.requests, 0) / requests : undefined,
  };
}

/**
 * One round against a target with the shared load generators (bench/lib/load.ts): wrk, each
 * connection's first request held unless `hold` is off (bench/lib/ramp-up.ts), or the loop of
 * Node requests. With wrk, this process's CPU time over the round is the server's (wrk runs apart).
 */
async function run(target: Target, seconds: number, hold = true): Promise<Result> {
  const load: LoadTarget = {
    url: `http://127.0.0.1:${target.port}${target.path}`,
    method: target.method,
    cookie: target.cookie,
    bodies: target.body ? [0, 1, 2, 3].map((i) => target.body!(i)) : [],
  };
  const cpu0 = process.cpuUsage();
  const r = GENERATOR === 'wrk' ? await runWrk(load, CONCURRENCY, seconds, hold ? HOLD_MS : 0) : await runNodeLoad(load, CONCURRENCY, seconds);
  const cpu = process.cpuUsage(cpu0);
  // no request finished within the round: the machine is too busy to measure anything
  if (r.requests === 0) throw new Error(`no request to ${target.name} finished within ${seconds} s: try a longer --seconds`);
  return {
    requests: r.requests,
    seconds: r.seconds,
    rps: r.requests / r.seconds,
    p50: r.p50,
    p99: r.p99,
    max: r.max,
    errors: r.badStatus + r.socketErrors,
    cpuUs: GENERATOR === 'wrk' ? (cpu.user + cpu.system) / r.requests : undefined,
  };
}

async function login(port: number, agent: http.Agent): Promise<string> {
  const body = JSON.stringify({ password: ADMIN_PASSWORD });
  const cookie = await new Promise<string>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/admin/verify-access', agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        const set = res.headers['set-cookie']?.[0];
        if (res.statusCode !== 200 || !set) reject(new Error(`admin login failed: ${res.statusCode}`));
        else resolve(set.split(';')[0] as string);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  return cookie;
}

const fmt = (n: number, digits: number) => n.toFixed(digits);

/**
 * What a tablet downloads for the kids pages: the login page plus every file under public/kids/
 * (scripts, style, icons), without compression and with what a browser asks for (br, gzip).
 */
async function transferredBytes(port: number, agent: http.Agent): Promise<void> {
  const page = await get(port, agent, '/kids', 'identity');
  const base = /(\/static\/[0-9a-f]+)\/kids\//.exec(page.body.toString())?.[1] ?? '/static';
  const kidsDir = path.join(import.meta.dirname, '..', 'public', 'kids');
  const urls = [
    '/kids',
    ...fs
      .readdirSync(kidsDir)
      .sort()
      .map((f) => `${base}/kids/${f}`),
  ];
  const totals = { identity: 0, gzip: 0, br: 0 };
  for (const url of urls) {
    for (const enc of ['identity', 'gzip', 'br'] as const) totals[enc] += (await get(port, agent, url, enc)).body.length;
  }
  console.log(`\nkids pages transferred (/kids + ${urls.length - 1} files under ${base}/kids/):`);
  console.log(`  uncompressed ${fmt(totals.identity / 1024, 1)} kB, gzip ${fmt(totals.gzip / 1024, 1)} kB, brotli ${fmt(totals.br / 1024, 1)} kB`);
}

function get(port: number, agent: http.Agent, p: string, encoding: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: p, agent, headers: { 'accept-encoding': encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** Worker thread: one server (the real app, or the bare handler on one of the two servers). */
async function serve(role: Role): Promise<void> {
  const listen = (server: http.Server) =>
    new Promise<number>((resolve) => {
      server.keepAliveTimeout = 60_000;
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const { createHttpServer } = await builtModule<typeof import('../src/http/http-server.js')>('http/http-server.js');
  if (role !== 'app') {
    const bare = express();
    bare.use(express.json());
    bare.get('/bare', (_req, res) => void res.json({ success: true, segments: [] }));
    bare.post('/bare', (req, res) => void res.json({ ...req.body, status: 'correct', similarity: 1 }));
    const port = await listen(role === 'bare' ? http.createServer(bare) : createHttpServer(bare));
    parentPort?.postMessage({ port } satisfies Served);
    return;
  }
  const { loadConfig } = await builtModule<typeof import('../src/config.js')>('config.js');
  const { openDatabase } = await builtModule<typeof import('../src/db/database.js')>('db/database.js');
  const { createLogger } = await builtModule<typeof import('../src/logger.js')>('logger.js');
  const { createApp } = await builtModule<typeof import('../src/app.js')>('app.js');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-bench-api-'));
  // VOICE_PRERENDER off: at start the service renders its voice clips in the background with
  // espeak-ng and ffmpeg (about 1 s of CPU each, dozens of them), which ran during the measured
  // rounds (a CPU profile showed the spawns) and took cores from the server and wrk
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_PASSWORD, LOG_LEVEL: 'silent', DEMO_SEED: 'false', SAMPLE_IMPORT: 'true', VOICE_PRERENDER: 'false' });
  const db = openDatabase(path.join(dataDir, 'app.sqlite'));
  const built = await createApp({ config, db, logger: createLogger(config.LOG_LEVEL) });
  const { videoId, seeded } = await sampleVideo(db, dataDir);
  const segments = (await db.all('SELECT 1 AS one FROM review_segments WHERE video_id = ?', [videoId])).length;
  // the service as `npm start` serves it (dist/server.js)
  const port = await listen(createHttpServer(built.app));
  parentPort?.postMessage({ port, videoId, segments, seeded, dataDir } satisfies Served);
}

/**
 * The bundled sample when it imported with its final questions; otherwise a video row seeded
 * here with reviewed questions through the questions feature's own import.
 */
async function sampleVideo(db: import('../src/db/database.js').Database, dataDir: string): Promise<{ videoId: string; seeded: boolean }> {
  const sample = await db.first<{ id: string }>('SELECT id FROM videos WHERE is_sample = 1 ORDER BY id');
  if (sample && (await db.first('SELECT 1 AS one FROM review_segments WHERE video_id = ?', [sample.id]))) return { videoId: sample.id, seeded: false };
  const { importReviewedQuestions } = await builtModule<typeof import('../src/questions/import.js')>('questions/import.js');
  const videoId = 'bench-video';
  await db.run(`INSERT INTO videos (id, title, duration_seconds, is_sample) VALUES (?, 'Bench video', 120, 1)`, [videoId]);
  const segments = Array.from({ length: 6 }, (_, k) => ({
    segment_range_start: k * 20,
    segment_range_end: (k + 1) * 20,
    questions: [
      {
        question_type: 'action',
        question: `What does the duck do in part ${k + 1}?`,
        answer: 'it swims',
        llm_ranking: 1,
        expert_ranking: 1,
        variants: [{ companion: 'bunny', question: `Hop hop! What does the duck do in part ${k + 1}?`, chosen: true }],
      },
    ],
  }));
  // awaited: the questions feature's import becomes async with issue #18
  await importReviewedQuestions(db, videoId, { provider: 'bench', segments }, { dataDir });
  return { videoId, seeded: true };
}

// Last, so every constant above is initialised before either side starts.
if (isMainThread) await main();
else await serve((workerData as { role: Role }).role);
