import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '../../src/config.js';
import { openDatabase, type Db } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { createApp, type BuiltApp } from '../../src/app.js';

/**
 * The real app on a throwaway DATA_DIR with its own SQLite file, for tests, benchmarks and
 * scripts (no vitest import, so benches and scripts can use it too). Defaults: no demo seed,
 * no sample import, no background voice-line rendering, silent logs; `env` overrides any setting.
 */
export interface TempApp {
  built: BuiltApp;
  db: Db;
  config: Config;
  dataDir: string;
  /** starts a real HTTP server on 127.0.0.1 (WebSocket upgrades included) once; returns its base URL */
  listen(): Promise<string>;
  /** closes the server, the app and the database, keeping the data dir (a later start can reuse it) */
  shutdown(): Promise<void>;
  /** shutdown(), then removes the data dir unless the caller supplied it */
  close(): Promise<void>;
}

export async function startTempApp(env: Record<string, string> = {}, dataDir?: string): Promise<TempApp> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-'));
  const config = loadConfig({ DATA_DIR: dir, DEMO_SEED: 'false', SAMPLE_IMPORT: 'false', VOICE_PRERENDER: 'false', LOG_LEVEL: 'silent', ...env });
  const db = openDatabase(path.join(config.dataDir, 'app.sqlite'));
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
    db.close();
  };
  return {
    built,
    db,
    config,
    dataDir: dir,
    async listen() {
      if (!server) {
        server = http.createServer(built.app);
        server.on('upgrade', (req, socket, head) => built.upgrades.handle(req, socket, head));
        await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
      }
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    shutdown,
    async close() {
      await shutdown();
      if (!dataDir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
