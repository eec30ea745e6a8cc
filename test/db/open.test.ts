import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { latestVersion } from '../../src/db/migrate.js';
import { connectDatabase, openAppDatabase } from '../../src/db/open.js';
import { createTestDatabase } from '../helpers/pg-cluster.js';

const pgUrl = inject('pgUrl');
const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-open-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('choosing the engine from DATABASE_URL', () => {
  it('refuses a DATABASE_URL that is not a PostgreSQL URL, naming the setting', () => {
    for (const bad of ['mysql://h/db', 'sqlite:./x', 'postgres:/missing-slash', 'postgres://with space']) {
      try {
        loadConfig({ DATA_DIR: tmp(), DATABASE_URL: bad });
        expect.unreachable(bad);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        expect((err as ConfigError).problems.join('\n')).toMatch(/DATABASE_URL: must be a postgres:\/\/… or postgresql:\/\/… URL/);
      }
    }
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_POOL_MAX: '0' })).toThrow(/DATABASE_POOL_MAX/);
  });

  it('opens the SQLite file in DATA_DIR when DATABASE_URL is unset or empty, with the secret in DATA_DIR', async () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: '' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATABASE_POOL_MAX).toBe(10);
    expect(config.sessionSecretFrom).toBe('file');
    const { db, config: final } = await openAppDatabase(config);
    try {
      expect(db.engine).toBe('sqlite');
      expect(final.SESSION_SECRET).toBe(fs.readFileSync(path.join(dir, 'secret.key'), 'utf8').trim());
      expect(fs.existsSync(path.join(dir, 'app.sqlite'))).toBe(true);
      expect(await db.first('SELECT MAX(version) AS v FROM schema_migrations')).toEqual({ v: latestVersion() });
      // the embedded engine never puts the secret in its file
      expect(await db.first('SELECT COUNT(*) AS n FROM app_secrets')).toEqual({ n: 0 });
    } finally {
      await db.close();
    }
  });
});

describe.skipIf(!pgUrl)('PostgreSQL from DATABASE_URL', () => {
  let target: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    target = await createTestDatabase(pgUrl, 'open');
  });
  afterAll(async () => target.drop());

  it('migrates the database, and two instances on it agree on one generated secret that is in no DATA_DIR', async () => {
    const [dirA, dirB] = [tmp(), tmp()];
    const a = loadConfig({ DATA_DIR: dirA, DATABASE_URL: target.url, DATABASE_POOL_MAX: '3' });
    const b = loadConfig({ DATA_DIR: dirB, DATABASE_URL: target.url.replace(/^postgres:/, 'postgresql:') });
    expect(a.sessionSecretFrom).toBe('database');
    expect(a.SESSION_SECRET).toBe('');
    // both start at once: one secret row wins, both read it back
    const [one, two] = await Promise.all([openAppDatabase(a), openAppDatabase(b)]);
    try {
      expect(one.db.engine).toBe('postgres');
      expect(one.config.SESSION_SECRET).toMatch(/^[0-9a-f]{64}$/);
      expect(two.config.SESSION_SECRET).toBe(one.config.SESSION_SECRET);
      expect(await one.db.all('SELECT name, value FROM app_secrets')).toEqual([{ name: 'session', value: one.config.SESSION_SECRET }]);
      expect(await two.db.first('SELECT MAX(version) AS v FROM schema_migrations')).toEqual({ v: latestVersion() });
      for (const dir of [dirA, dirB]) {
        expect(fs.readdirSync(dir)).toEqual([]); // no secret.key, no app.sqlite
      }
      // a restart reads the same secret again
      const again = await openAppDatabase(loadConfig({ DATA_DIR: dirA, DATABASE_URL: target.url }));
      expect(again.config.SESSION_SECRET).toBe(one.config.SESSION_SECRET);
      await again.db.close();
    } finally {
      await one.db.close();
      await two.db.close();
    }
  });

  it('uses SESSION_SECRET when it is set, and writes none to the database', async () => {
    const fresh = await createTestDatabase(pgUrl, 'openenv');
    const secret = 's'.repeat(40);
    const { db, config } = await openAppDatabase(loadConfig({ DATA_DIR: tmp(), DATABASE_URL: fresh.url, SESSION_SECRET: secret }));
    try {
      expect(config.sessionSecretFrom).toBe('env');
      expect(config.SESSION_SECRET).toBe(secret);
      expect(await db.first('SELECT COUNT(*) AS n FROM app_secrets')).toEqual({ n: 0 });
    } finally {
      await db.close();
      await fresh.drop();
    }
  });

  it('fails to start with a clear error when the server cannot be reached, leaving no pool open', async () => {
    const u = new URL(pgUrl);
    u.port = '1'; // nothing listens on port 1 of the loopback
    await expect(connectDatabase({ DATABASE_URL: u.toString(), DATABASE_POOL_MAX: 1, dataDir: tmp() })).rejects.toThrow(/ECONNREFUSED|connect/);
  });
});
