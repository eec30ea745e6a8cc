import crypto from 'node:crypto';
import path from 'node:path';
import type { Config } from '../config.js';
import { type Database, openDatabase } from './database.js';
import { migratePostgres } from './migrate.js';
import { isPostgresUrl, PgDatabase } from './postgres.js';

/** What the server holds: the data layer plus a way to let go of it (file handle or connection pool). */
export interface DatabaseRoot extends Database {
  close(): Promise<void>;
}

export type DatabaseSettings = Pick<Config, 'DATABASE_URL' | 'DATABASE_POOL_MAX' | 'dataDir'>;

/**
 * The configured engine, migrated: PostgreSQL when DATABASE_URL is a postgres:// URL, else the
 * SQLite file DATA_DIR/app.sqlite (the embedded default, unchanged).
 */
export async function connectDatabase(settings: DatabaseSettings): Promise<DatabaseRoot> {
  if (isPostgresUrl(settings.DATABASE_URL)) {
    const db = new PgDatabase({ url: settings.DATABASE_URL, poolMax: settings.DATABASE_POOL_MAX });
    try {
      await migratePostgres(db);
    } catch (err) {
      await db.close();
      throw err;
    }
    return db;
  }
  return openDatabase(path.join(settings.dataDir, 'app.sqlite'));
}

const SESSION_SECRET_NAME = 'session';

/**
 * The installation's shared server secret, kept in the database: the first value offered wins
 * (ON CONFLICT DO NOTHING) and every instance reads back the one stored. Start-up offers a fresh
 * random one; `npm run db:to-postgres` offers the SQLite installation's, so its codes still work.
 */
export async function sharedSessionSecret(db: Database, candidate = crypto.randomBytes(32).toString('hex')): Promise<string> {
  await db.run('INSERT INTO app_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [SESSION_SECRET_NAME, candidate]);
  const row = await db.first<{ value: string }>('SELECT value FROM app_secrets WHERE name = ?', [SESSION_SECRET_NAME]);
  if (!row || row.value.length < 32) throw new Error('The shared server secret in app_secrets is missing or shorter than 32 characters');
  return row.value;
}

/**
 * Start-up's data step: the engine from the settings, migrated, and the config with its final
 * server secret (from the database when the config says so, see loadConfig).
 */
export async function openAppDatabase(config: Config): Promise<{ db: DatabaseRoot; config: Config }> {
  const db = await connectDatabase(config);
  if (config.sessionSecretFrom !== 'database') return { db, config };
  try {
    return { db, config: { ...config, SESSION_SECRET: await sharedSessionSecret(db) } };
  } catch (err) {
    await db.close();
    throw err;
  }
}
