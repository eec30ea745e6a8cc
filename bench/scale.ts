/**
 * `npm run bench:scale` (npx tsx bench/scale.ts [--seconds=3] [--concurrency=50] [--generator=wrk|node]):
 * score-save (POST /api/save-quiz-score) and POST /api/check_answer under load, on SQLite and on
 * PostgreSQL, with one and with two instances (issue #18).
 *
 * Builds dist/ and starts the service as `npm start` runs it (`node dist/server.js`,
 * NODE_ENV=production, LOG_LEVEL=warn so no per-request log line) in real processes: one on a
 * SQLite file, two on one database of a throwaway PostgreSQL cluster (test/helpers/pg-cluster.ts).
 * Through the API it creates an expert, a child in a family with a code, assigns the bundled
 * sample, and logs a tablet (child session) in on each instance (lib/scale-setup.ts). With wrk,
 * each connection's first request is held so the connection ramp-up is in no figure
 * (lib/ramp-up.ts); the output says so. Configurations: SQLite 1
 * instance (the baseline), PostgreSQL 1 instance, PostgreSQL 2 instances (one load generator per
 * instance, the connections split between them, throughput summed, the worse p99 reported).
 * Two instances on one SQLite file is not a supported set-up and is not measured.
 *
 * `--seconds` per cell, over 3 alternating rounds (every cell once per round, so a busy moment of
 * the shared machine lands on all of them). Printed per cell: req/s, p50, p99, errors, the web
 * processes' CPU per request and PostgreSQL's (postmaster + backends, from /proc), ratios against
 * the SQLite single-instance cell of the same run, and the score rows that landed (counted in the
 * database before and after, once the instances are idle again) against the 2xx answers; and,
 * before the load, PostgreSQL's transactions, rows and scans per request (its statistics views).
 * Exits 1 on a failed request or a lost row. Every process and temp folder is removed at the
 * end, on an error, and on Ctrl-C. Run it as `npm run bench:scale` or `node --import tsx bench/scale.ts`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { createTestDatabase, freePort, startPgCluster } from '../test/helpers/pg-cluster.js';
import { startInstance, type InstanceProcess } from '../test/helpers/instance-process.js';
import { Cleanup } from './lib/cleanup.js';
import { hasWrk, runNodeLoad, runningLoads, runWrk, type LoadResult, type LoadTarget } from './lib/load.js';
import { HOLD_MS } from './lib/ramp-up.js';
import { activityPerRequest, backgroundPerSecond, formatActivity, type PgActivity, pgActivity, settleMs } from './lib/pg-stats.js';
import { processCpuUs, processTreeCpuUs, ticksPerSecond } from './lib/proc-cpu.js';
import { combineRounds, formatTable, rowsVerdict, type CellResult, type Round } from './lib/scale-report.js';
import { ADMIN_PASSWORD, setUp, type BenchData } from './lib/scale-setup.js';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const SECONDS = Number(arg('seconds') ?? 3);
const CONCURRENCY = Number(arg('concurrency') ?? 50);
const GENERATOR = arg('generator') ?? (hasWrk() ? 'wrk' : 'node');
const ROUNDS = 3;
const STATS_REQUESTS = 200;
const ROOT = path.resolve(import.meta.dirname, '..');

/** one engine's database as the bench sees it: its instances, and how to count saved scores */
interface Engine extends BenchData {
  name: 'SQLite' | 'PostgreSQL';
  instances: InstanceProcess[];
  countAttempts(): Promise<number>;
  /** PostgreSQL's CPU (postmaster and backends), µs; undefined for SQLite (inside the web process) */
  dbCpuUs(): number | undefined;
}

interface Cell {
  config: string;
  route: 'check_answer' | 'save-quiz-score';
  engine: Engine;
  instances: number;
}

async function main(): Promise<void> {
  const cleanup = new Cleanup();
  cleanup.onSignals();
  cleanup.add('load generators', () => {
    for (const child of runningLoads) child.kill('SIGTERM');
  });
  let failed = false;
  try {
    const loadStart = os.loadavg();
    const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`build failed:\n${built.stderr}`);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-bench-scale-'));
    cleanup.add('temp folder', () => fs.rmSync(root, { recursive: true, force: true }));

    const cluster = await startPgCluster();
    cleanup.add('PostgreSQL cluster', () => cluster.stop());
    const database = await createTestDatabase(cluster.url, 'scale');
    cleanup.add('PostgreSQL database', () => database.drop());
    const pgClient = new pg.Client({ connectionString: database.url });
    await pgClient.connect();
    cleanup.add('PostgreSQL client', () => pgClient.end());
    const pgVersion = ((await pgClient.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]?.v ?? '?').split(' ')[0];

    const start = async (name: string, env: Record<string, string>) => {
      const dataDir = path.join(root, name);
      fs.mkdirSync(dataDir);
      const port = String(await freePort());
      const inst = await startInstance('server', { ADMIN_PASSWORD, LOG_LEVEL: 'warn', DATA_DIR: dataDir, PORT: port, ...env }, { built: true });
      cleanup.add(`instance ${name}`, () => inst.stop());
      return inst;
    };
    const sqlite = await start('sqlite', { SAMPLE_IMPORT: 'true' });
    // the first PostgreSQL instance migrates and imports the sample; the second finds both done
    const pgA = await start('pg-a', { DATABASE_URL: database.url, SAMPLE_IMPORT: 'true' });
    const pgB = await start('pg-b', { DATABASE_URL: database.url });

    const sqliteFile = path.join(sqlite.dataDir, 'app.sqlite');
    const engines: Engine[] = [
      {
        name: 'SQLite',
        instances: [sqlite],
        countAttempts: async () => {
          const db = new Sqlite(sqliteFile, { readonly: true, fileMustExist: true });
          try {
            return (db.prepare('SELECT COUNT(*) AS n FROM quiz_attempts').get() as { n: number }).n;
          } finally {
            db.close();
          }
        },
        dbCpuUs: () => undefined,
        ...(await setUp([sqlite])),
      },
      {
        name: 'PostgreSQL',
        instances: [pgA, pgB],
        countAttempts: async () => Number((await pgClient.query<{ n: string }>('SELECT COUNT(*) AS n FROM quiz_attempts')).rows[0]?.n),
        dbCpuUs: () => (cluster.postmasterPid ? processTreeCpuUs(cluster.postmasterPid) : undefined),
        ...(await setUp([pgA, pgB])),
      },
    ];
    const [sqliteEngine, pgEngine] = engines as [Engine, Engine];
    const cells: Cell[] = [];
    for (const route of ['check_answer', 'save-quiz-score'] as const) {
      cells.push({ config: 'SQLite, 1 instance', route, engine: sqliteEngine, instances: 1 });
      cells.push({ config: 'PostgreSQL, 1 instance', route, engine: pgEngine, instances: 1 });
      cells.push({ config: 'PostgreSQL, 2 instances', route, engine: pgEngine, instances: 2 });
    }

    const perRound = Math.max(1, Math.round(SECONDS / ROUNDS));
    console.log(`Scale bench: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.versions.node}, PostgreSQL ${pgVersion} (fsync off)`);
    console.log(`load average at start ${loadStart.map((l) => l.toFixed(1)).join(' ')}`);
    console.log(
      `load: ${GENERATOR === 'wrk' ? 'wrk (one thread per instance, separate processes)' : 'Node http client in this process'}, ` +
        `${CONCURRENCY} keep-alive connections in all (split between instances), ${ROUNDS} rounds of ${perRound} s per cell`,
    );
    console.log('web instances: node dist/server.js, NODE_ENV=production, LOG_LEVEL=warn; child session cookie; bundled sample video');
    console.log(rampUpNote());
    console.log('two instances on one SQLite file: not a supported set-up (one writer process per file), not measured\n');

    // PostgreSQL's statements per request, before any load (a backlog or late counts from an
    // overloaded round would blur them): the idle background first, then each route
    const pgWork = [
      `PostgreSQL's work per request (${STATS_REQUESTS} requests one after another to one instance, before the load; pg_stat_database, pg_stat_user_tables):`,
    ];
    await new Promise((r) => setTimeout(r, settleMs)); // start-up's and set-up's counts published first
    const idle0 = await pgActivity(pgClient);
    await new Promise((r) => setTimeout(r, settleMs));
    const background = backgroundPerSecond(idle0, await pgActivity(pgClient), settleMs / 1000);
    pgWork.push(`  ${'idle, per second'.padEnd(16)} ${formatActivity(background)} (subtracted below)`);
    for (const route of ['check_answer', 'save-quiz-score'] as const) {
      pgWork.push(`  ${route.padEnd(16)} ${await statementsPerRequest(pgEngine, pgClient, route, background)}`);
    }

    // warm-up: JIT, pools and caches; its rows are outside every count
    for (const cell of cells) await runCell(cell, 1);
    const rounds = cells.map(() => [] as Round[]);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, cell] of cells.entries()) rounds[i]!.push(await runCell(cell, perRound));
    }
    // a round stops with up to CONCURRENCY requests in flight: answered too late for the load
    // generator, their rows may still land
    const results: CellResult[] = cells.map((cell, i) => ({
      config: cell.config,
      route: cell.route,
      inFlight: CONCURRENCY * ROUNDS,
      ...combineRounds(rounds[i]!),
    }));
    console.log(formatTable(results));
    console.log(`\n${pgWork.join('\n')}`);
    const loadEnd = os.loadavg();
    console.log(`\nload average at end ${loadEnd.map((l) => l.toFixed(1)).join(' ')}`);

    for (const r of results) {
      if (r.errors > 0) {
        failed = true;
        console.log(`FAIL: ${r.config}, ${r.route}: ${r.errors} requests failed`);
      }
      if (r.rowsLanded !== undefined && rowsVerdict(r) !== 'ok') {
        failed = true;
        console.log(`FAIL: ${r.config}: ${r.acknowledged} scores acknowledged, ${r.rowsLanded} rows landed`);
      }
    }
  } catch (err) {
    failed = true;
    // after Ctrl-C the instances go away under a running load: that error is no news
    if (!cleanup.started) console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  } finally {
    const failures = await cleanup.run();
    for (const f of failures) console.error(`cleanup: ${f}`);
  }
  process.exitCode = failed ? 1 : 0;
}

/** What the output says about the connection ramp-up (HOLD_MS in bench/lib/ramp-up.ts), per load generator. */
function rampUpNote(): string {
  return GENERATOR === 'wrk'
    ? `ramp-up excluded: each wrk connection's first request waits ${HOLD_MS} ms, so every connection is accepted before the load ` +
        "(Node accepts one connection per event-loop turn); the hold is in no latency and is taken off each round's duration"
    : "ramp-up included: the Node load sends each connection's first request at once (only the wrk load holds it)";
}

/** One cell for `seconds`: one load per instance at once, with CPU and row counts around it. */
async function runCell(cell: Cell, seconds: number): Promise<Round> {
  const { engine } = cell;
  const instances = engine.instances.slice(0, cell.instances);
  const path_ = cell.route === 'check_answer' ? '/api/check_answer' : '/api/save-quiz-score';
  const bodies = cell.route === 'check_answer' ? engine.bodies.check : engine.bodies.save;
  const connections = Math.max(1, Math.round(CONCURRENCY / instances.length));
  const saving = cell.route === 'save-quiz-score';
  const rows0 = saving ? await engine.countAttempts() : 0;
  const web0 = instances.map((i) => processCpuUs(i.proc.pid!) ?? 0);
  const db0 = engine.dbCpuUs();
  const run = GENERATOR === 'wrk' ? runWrk : runNodeLoad;
  const loads: LoadResult[] = await Promise.all(
    instances.map((inst, k) => {
      const target: LoadTarget = { url: `${inst.url}${path_}`, method: 'POST', cookie: engine.cookies[k], bodies };
      return run(target, connections, seconds);
    }),
  );
  // answers still in flight (or queued) when the load stopped finish before the CPU and rows are
  // read: on a busy machine that can take seconds, and the next cell must not count them
  await waitIdle(engine.instances);
  const webUs = instances.reduce((n, inst, k) => n + ((processCpuUs(inst.proc.pid!) ?? 0) - web0[k]!), 0);
  const db1 = engine.dbCpuUs();
  const rows = saving ? (await engine.countAttempts()) - rows0 : undefined;
  return { loads, webUs, dbUs: db0 !== undefined && db1 !== undefined ? db1 - db0 : undefined, rows };
}

/**
 * PostgreSQL's transactions, rows and scans per request of `route`, sent one at a time, and the
 * mean time of one request alone (the round trips a request makes show here, not under load,
 * where CPU decides). Starts from published counts and waits until its own are published, so
 * calls chain.
 */
async function statementsPerRequest(engine: Engine, client: pg.Client, route: Cell['route'], perSecond: PgActivity): Promise<string> {
  const url = route === 'check_answer' ? '/api/check_answer' : '/api/save-quiz-score';
  const bodies = route === 'check_answer' ? engine.bodies.check : engine.bodies.save;
  const before = await pgActivity(client);
  const started = performance.now();
  for (let i = 0; i < STATS_REQUESTS; i++) {
    const res = await fetch(engine.instances[0]!.url + url, {
      method: 'POST',
      headers: { cookie: engine.cookies[0]!, 'content-type': 'application/json' },
      body: bodies[i % bodies.length],
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  }
  const alone = (performance.now() - started) / STATS_REQUESTS;
  await new Promise((r) => setTimeout(r, settleMs));
  const after = await pgActivity(client);
  const activity = formatActivity(activityPerRequest(before, after, STATS_REQUESTS, { perSecond, seconds: (performance.now() - started) / 1000 }));
  return `${activity}; ${alone.toFixed(2)} ms per request alone`;
}

/**
 * Waits until the web processes stop working: their CPU grows by at most 2 clock ticks in 300 ms
 * (an idle instance's timers cost less), twice in a row; gives up after 60 s.
 */
async function waitIdle(instances: InstanceProcess[]): Promise<void> {
  const cpu = () => instances.reduce((n, i) => n + (processCpuUs(i.proc.pid!) ?? 0), 0);
  const quiet = (2 * 1e6) / ticksPerSecond();
  let calm = 0;
  for (let tries = 0; calm < 2 && tries < 200; tries++) {
    const before = cpu();
    await new Promise((r) => setTimeout(r, 300));
    calm = cpu() - before <= quiet ? calm + 1 : 0;
  }
}

await main();
