import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { type DatabaseRoot, openAppDatabase } from '../../src/db/open.js';
import { createTestDatabase } from './pg-cluster.js';
import { createLogger } from '../../src/logger.js';
import { createApp, type BuiltApp } from '../../src/app.js';
import { createHttpServer } from '../../src/http/http-server.js';

/**
 * The real app on a throwaway DATA_DIR with its own SQLite file, for tests, benchmarks and
 * scripts (no vitest import, so benches and scripts can use it too). Defaults: no demo seed,
 * no sample import, no background voice-line rendering, silent logs; `env` overrides any setting.
 *
 * Engine: SQLite, or PostgreSQL with `TEST_ENGINE=postgres` (or `options.engine`): then the app
 * gets a new database on the test run's cluster (`TEST_PG_URL`, set by the vitest global setup),
 * remembered in the data dir so a restart on the same dir finds it again, dropped by close().
 * An explicit `DATABASE_URL` in `env` is used as it is.
 */
export type TestEngine = 'sqlite' | 'postgres';

export interface TempAppOptions {
  engine?: TestEngine;
}

/** The engine tests run on: `TEST_ENGINE` (sqlite by default). */
export function testEngine(): TestEngine {
  const e = process.env.TEST_ENGINE ?? 'sqlite';
  if (e !== 'sqlite' && e !== 'postgres') throw new Error(`TEST_ENGINE must be sqlite or postgres, not ${e}`);
  return e;
}

/** Where a temp app on PostgreSQL notes its database, so a restart on the same data dir reuses it. */
const PG_URL_FILE = '.test-database-url';

async function testDatabaseUrl(dir: string): Promise<{ url: string; drop?: () => Promise<void> }> {
  const noted = path.join(dir, PG_URL_FILE);
  if (fs.existsSync(noted)) return { url: fs.readFileSync(noted, 'utf8').trim() };
  const cluster = process.env.TEST_PG_URL;
  if (!cluster) {
    throw new Error('TEST_ENGINE=postgres needs a PostgreSQL cluster: TEST_PG_URL is set by the vitest global setup (not with TEST_POSTGRES=off)');
  }
  const created = await createTestDatabase(cluster, 'app');
  fs.writeFileSync(noted, created.url);
  return created;
}

export interface TempApp {
  built: BuiltApp;
  db: Database;
  engine: TestEngine;
  config: Config;
  dataDir: string;
  /** starts a real HTTP server on 127.0.0.1 (WebSocket upgrades included) once; returns its base URL */
  listen(): Promise<string>;
  /** closes the server, the app and the database, keeping the data dir (a later start can reuse it) */
  shutdown(): Promise<void>;
  /** shutdown(), then removes the data dir unless the caller supplied it */
  close(): Promise<void>;
}

export async function startTempApp(env: Record<string, string> = {}, dataDir?: string, options: TempAppOptions = {}): Promise<TempApp> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-'));
  const engine = env.DATABASE_URL ? 'postgres' : (options.engine ?? testEngine());
  const pgDb = engine === 'postgres' && !env.DATABASE_URL ? await testDatabaseUrl(dir) : undefined;
  const opened = await openAppDatabase(
    loadConfig({
      DATA_DIR: dir,
      DEMO_SEED: 'false',
      SAMPLE_IMPORT: 'false',
      VOICE_PRERENDER: 'false',
      LOG_LEVEL: 'silent',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
      ...env,
    }),
  );
  const config = opened.config;
  const root: DatabaseRoot = opened.db;
  const db: Database = root;
  const built = await createApp({ config, db, logger: createLogger(config.LOG_LEVEL) });
  let server: http.Server | undefined;
  let down = false;
  const shutdown = async () => {
    if (down) return;
    down = true;
    if (server) {
      const s = server;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
    await built.close();
    await root.close();
  };
  return {
    built,
    db,
    engine,
    config,
    dataDir: dir,
    async listen() {
      if (!server) {
        server = createHttpServer(built.app);
        server.on('upgrade', (req, socket, head) => built.upgrades.handle(req, socket, head));
        await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
      }
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    shutdown,
    async close() {
      await shutdown();
      if (!dataDir) {
        await pgDb?.drop?.();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
