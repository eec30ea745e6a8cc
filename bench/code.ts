/**
 * The code sandbox's cost over a bare sandboxed process:
 *   npx tsx bench/code.ts [--iterations=30] [--seconds=4]      (or npm run bench:code)
 * For Python and JavaScript: a hello-world run and a 5-case run (one problem, five inputs, run
 * one after another as /run does) through the real runner (createCodeRunner), each against the
 * same program started directly as `setpriv … bwrap <same flags> … python3 -I -c …` / `node -e …`
 * with no harness, measured in the same run with the two sides alternating; then throughput with
 * 8 concurrent callers, again against 8 concurrent bare processes. Goal: the runner adds
 * <= 30 ms at p50 over the bare sandboxed process. Exits 1 when a run gives a wrong answer.
 *
 * POST /run end to end (the real app on 127.0.0.1, HTTP keep-alive, the admin's session) is
 * measured the same way against the same bare processes, and in the throughput part.
 * To add a measurement, append a Pair to PAIRS below: `subject` is what
 * is measured, `baseline` what it is compared with; both must throw on a wrong answer.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createCodeRunner } from '../src/code-runner/index.js';
import { createApp, type BuiltApp } from '../src/app.js';
import { createHttpServer } from '../src/http/http-server.js';
import { openDatabase, type Db } from '../src/db/database.js';
import { configuredLimits } from '../src/code-runner/limits.js';
import { buildSandboxCommand } from '../src/code-runner/sandbox-args.js';
import type { Language } from '../src/code-runner/types.js';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const ITERATIONS = arg('iterations', 30);
const SECONDS = arg('seconds', 4);
const CONCURRENCY = 8;
const GOAL_P50_MS = 30;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-bench-code-'));
const ADMIN_PASSWORD = 'bench-admin-password';
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  CODE_CONCURRENCY: String(CONCURRENCY),
  CODE_QUEUE: '64',
  // the /run part: the real app on 127.0.0.1, logged in as the admin, no per-session limit
  ADMIN_PASSWORD,
  CODE_CALLS_PER_MINUTE: '0',
  DEMO_SEED: 'false',
  SAMPLE_IMPORT: 'false',
});
const runner = createCodeRunner(config, createLogger('silent'));
const isRoot = process.getuid?.() === 0;

const HELLO: Record<Language, string> = { python: 'print("hello")', javascript: 'console.log("hello")' };
/** the classic first problem: read a number, print its double */
const DOUBLE: Record<Language, string> = {
  python: 'n = int(input())\nprint(n * 2)',
  javascript: 'const n = Number(require("fs").readFileSync(0, "utf8"));\nconsole.log(n * 2);',
};
const CASES = ['1', '2', '10', '21', '-4'];

/** The same sandbox, flags and user as the runner, started directly: the bare cost of bwrap + interpreter. */
const codeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-bench-bare-'));
fs.chmodSync(codeDir, 0o755);
function bareCommand(language: Language, source: string) {
  return buildSandboxCommand({
    language,
    limits: configuredLimits(config),
    codeDir,
    bwrapPath: config.BWRAP_PATH.includes('/') ? config.BWRAP_PATH : '/usr/bin/bwrap',
    pythonPath: config.CODE_PYTHON_PATH,
    nodePath: config.CODE_NODE_PATH ?? process.execPath,
    nodeHeapMb: config.CODE_NODE_HEAP_MB,
    tmpfsBytes: config.CODE_TMPFS_MB * 1024 * 1024,
    dropToUid: isRoot ? config.CODE_SANDBOX_UID : null,
    argv: language === 'python' ? [config.CODE_PYTHON_PATH, '-I', '-c', source] : [config.CODE_NODE_PATH ?? process.execPath, `--max-old-space-size=${config.CODE_NODE_HEAP_MB}`, '-e', source],
  });
}

function bare(language: Language, source: string, stdin: string): Promise<string> {
  const { cmd, args } = bareCommand(language, source);
  return new Promise((resolve, reject) => {
    // fd 3: bwrap's --info-fd, part of the same command line
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit', 'pipe'], env: {} });
    (child.stdio[3] as NodeJS.ReadableStream).resume();
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`bare ${language} exited ${code}`))));
    child.stdin!.end(stdin);
  });
}

async function viaRunner(language: Language, code: string, stdin: string): Promise<string> {
  const r = await runner.run({ language, code, stdin });
  if (r.exitCode !== 0 || r.timedOut) throw new Error(`${language} run failed: exit ${r.exitCode} ${r.stderr.slice(0, 200)}`);
  return r.stdout;
}

function expectOut(got: string, want: string): void {
  if (got !== want) throw new Error(`wrong output: ${JSON.stringify(got)} instead of ${JSON.stringify(want)}`);
}

/**
 * POST /run end to end: the real app (its own runner, same settings) behind a real HTTP server
 * on 127.0.0.1, called with keep-alive like a tablet would; started in main().
 */
const web: { db?: Db; app?: BuiltApp; server?: http.Server; port?: number; cookie?: string } = {};
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(path_: string, body: unknown): Promise<{ status: number; body: string; cookie?: string }> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: web.port, path: path_, method: 'POST', agent: keepAlive, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), ...(web.cookie ? { cookie: web.cookie } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, cookie: res.headers['set-cookie']?.[0]?.split(';')[0] }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function startWeb(): Promise<void> {
  web.db = openDatabase(path.join(config.dataDir, 'app.sqlite'));
  web.app = await createApp({ config, db: web.db, logger: createLogger('silent') });
  web.server = createHttpServer(web.app.app);
  await new Promise<void>((resolve) => web.server!.listen(0, '127.0.0.1', () => resolve()));
  web.port = (web.server.address() as AddressInfo).port;
  const login = await post('/api/admin/verify-access', { password: ADMIN_PASSWORD });
  if (login.status !== 200 || !login.cookie) throw new Error(`admin login failed: ${login.status}`);
  web.cookie = login.cookie;
}

async function stopWeb(): Promise<void> {
  keepAlive.destroy();
  web.server?.closeAllConnections();
  if (web.server) await new Promise<void>((resolve) => web.server!.close(() => resolve()));
  await web.app?.close();
  void web.db?.close();
}

/** One POST /run; throws unless every case passed with the expected output. */
async function viaRoute(language: Language, code: string, testCases: { stdin: string; expected_stdout: string }[]): Promise<void> {
  const res = await post('/run', { code, language, testCases });
  if (res.status !== 200) throw new Error(`/run answered ${res.status}: ${res.body.slice(0, 200)}`);
  const body = JSON.parse(res.body) as { passed: number; total: number; stdout: string };
  const want = Math.max(1, testCases.length);
  if (body.passed !== want || body.total !== want) throw new Error(`/run passed ${body.passed} of ${body.total}: ${res.body.slice(0, 200)}`);
}

interface Pair {
  name: string;
  subject: () => Promise<void>;
  baseline: () => Promise<void>;
}

const PAIRS: Pair[] = (['python', 'javascript'] as const).flatMap((language): Pair[] => [
  {
    name: `${language} hello world`,
    subject: async () => expectOut(await viaRunner(language, HELLO[language], ''), 'hello\n'),
    baseline: async () => expectOut(await bare(language, HELLO[language], ''), 'hello\n'),
  },
  {
    name: `${language} 5 test cases`,
    subject: async () => {
      for (const c of CASES) expectOut(await viaRunner(language, DOUBLE[language], c), `${Number(c) * 2}\n`);
    },
    baseline: async () => {
      for (const c of CASES) expectOut(await bare(language, DOUBLE[language], c), `${Number(c) * 2}\n`);
    },
  },
]);

// POST /run end to end against the same bare sandboxed processes
PAIRS.push(
  ...(['python', 'javascript'] as const).flatMap((language): Pair[] => [
    {
      name: `${language} hello via /run`,
      subject: () => viaRoute(language, HELLO[language], [{ stdin: '', expected_stdout: 'hello\n' }]),
      baseline: async () => expectOut(await bare(language, HELLO[language], ''), 'hello\n'),
    },
    {
      name: `${language} 5 cases via /run`,
      subject: () => viaRoute(language, DOUBLE[language], CASES.map((c) => ({ stdin: c, expected_stdout: `${Number(c) * 2}\n` }))),
      baseline: async () => {
        for (const c of CASES) expectOut(await bare(language, DOUBLE[language], c), `${Number(c) * 2}\n`);
      },
    },
  ]),
);

async function time(fn: () => Promise<void>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function throughput(fn: () => Promise<void>): Promise<number> {
  const seconds = SECONDS / 2;
  const until = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await fn();
        done++;
      }
    }),
  );
  return done / seconds;
}

async function main(): Promise<void> {
  const health = await runner.health();
  if (!health.ok) throw new Error(`sandbox unavailable: ${health.message}`);
  await startWeb();
  console.log(`code sandbox bench: ${ITERATIONS} iterations per side, ${os.cpus().length} cores, ${isRoot ? `as root, code runs as uid ${config.CODE_SANDBOX_UID}` : 'not root'}`);
  const fmt = (n: number) => n.toFixed(1).padStart(7);
  let worstOverhead = -Infinity;
  for (const pair of PAIRS) {
    await pair.subject(); // warm-up: page cache, first health check
    await pair.baseline();
    const s: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      // alternate, so a busy moment of the shared machine lands on both sides
      s.push(await time(pair.subject));
      b.push(await time(pair.baseline));
    }
    s.sort((x, y) => x - y);
    b.sort((x, y) => x - y);
    const overhead = pct(s, 50) - pct(b, 50);
    const perRun = /5 (test )?cases/.test(pair.name) ? overhead / CASES.length : overhead;
    worstOverhead = Math.max(worstOverhead, perRun);
    console.log(
      `${pair.name.padEnd(26)} runner p50 ${fmt(pct(s, 50))} ms  p99 ${fmt(pct(s, 99))} ms | bare p50 ${fmt(pct(b, 50))} ms  p99 ${fmt(pct(b, 99))} ms | ${perRun >= 0 ? '+' : ''}${perRun.toFixed(1)} ms per run at p50`,
    );
  }
  console.log(`\nthroughput, ${CONCURRENCY} concurrent callers, ${SECONDS} s each:`);
  for (const language of ['python', 'javascript'] as const) {
    // two alternating halves per side, so a busy moment of the machine lands on both
    let r = 0;
    let b = 0;
    for (let half = 0; half < 2; half++) {
      r += (await throughput(async () => expectOut(await viaRunner(language, HELLO[language], ''), 'hello\n'))) / 2;
      b += (await throughput(async () => expectOut(await bare(language, HELLO[language], ''), 'hello\n'))) / 2;
    }
    console.log(`  ${language.padEnd(10)} runner ${r.toFixed(1).padStart(6)} runs/s   bare ${b.toFixed(1).padStart(6)} runs/s   ratio ${(r / b).toFixed(2)}x`);
    const w = await throughput(() => viaRoute(language, HELLO[language], [{ stdin: '', expected_stdout: 'hello\n' }]));
    console.log(`  ${language.padEnd(10)} /run   ${w.toFixed(1).padStart(6)} runs/s   bare ${b.toFixed(1).padStart(6)} runs/s   ratio ${(w / b).toFixed(2)}x`);
  }
  console.log(`\nworst runner overhead per run at p50: ${worstOverhead.toFixed(1)} ms (goal <= ${GOAL_P50_MS} ms): ${worstOverhead <= GOAL_P50_MS ? 'met' : 'MISSED'}`);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopWeb();
    await runner.close();
    fs.rmSync(codeDir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
