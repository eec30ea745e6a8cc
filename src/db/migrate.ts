import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './database.js';
import type { PgDatabase } from './postgres.js';

/**
 * One ordered list of migrations for both engines (issue #18). `NNN-name.sql` is the SQLite text
 * and the list's order; `NNN-name.pg.sql` beside it is the PostgreSQL text where the dialects
 * differ (types, timestamp defaults), else PostgreSQL runs the `.sql` file too. Both engines
 * record the version and the `.sql` name in schema_migrations, so a database moved from one
 * engine to the other (`npm run db:to-postgres`) can be compared by version.
 */
export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  /** the SQLite file's name, recorded on both engines */
  name: string;
  sql: string;
}

const SQL_FILE = /^(\d{3})-[a-z0-9-]+\.sql$/;
const PG_FILE = /^(\d{3})-[a-z0-9-]+\.pg\.sql$/;

/** The migrations in order, with the text for the given engine. A `.pg.sql` without its `.sql` is an error. */
export function listMigrations(engine: 'sqlite' | 'postgres', dir = MIGRATIONS_DIR): Migration[] {
  const names = fs.readdirSync(dir);
  const base = names.filter((f) => SQL_FILE.test(f) && !PG_FILE.test(f)).sort();
  for (const f of names.filter((n) => PG_FILE.test(n))) {
    if (!base.includes(f.replace(/\.pg\.sql$/, '.sql'))) throw new Error(`Migration ${f} has no SQLite twin ${f.replace(/\.pg\.sql$/, '.sql')}`);
  }
  const versions = new Set<number>();
  return base.map((name) => {
    const version = Number(name.slice(0, 3));
    if (versions.has(version)) throw new Error(`Two migrations share version ${version}`);
    versions.add(version);
    const pgName = name.replace(/\.sql$/, '.pg.sql');
    const file = engine === 'postgres' && names.includes(pgName) ? pgName : name;
    return { version, name, sql: fs.readFileSync(path.join(dir, file), 'utf8') };
  });
}

/** The newest version in the list (what a migrated database of either engine is at). */
export function latestVersion(dir = MIGRATIONS_DIR): number {
  return Math.max(0, ...listMigrations('sqlite', dir).map((m) => m.version));
}

/**
 * SQLite: applies what is missing, each migration in its own transaction (synchronous: the
 * embedded engine opens before anything else runs). Returns the names applied.
 */
export function migrate(db: Db, dir = MIGRATIONS_DIR): string[] {
  db.raw.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (datetime('now')))`);
  const done = new Set(db.allSync<{ version: number }>('SELECT version FROM schema_migrations').map((r) => r.version));
  const applied: string[] = [];
  for (const m of listMigrations('sqlite', dir)) {
    if (done.has(m.version)) continue;
    db.transactionSync(() => {
      db.raw.exec(m.sql);
      db.runSync('INSERT INTO schema_migrations (version, name) VALUES (?, ?)', [m.version, m.name]);
    });
    applied.push(m.name);
  }
  return applied;
}

/** Advisory lock key of the migration run: instances starting together migrate one after the other. */
const MIGRATION_LOCK = 0x6b76716d; // 'kvqm'

/**
 * PostgreSQL: the same list under a session advisory lock on one connection, so of two instances
 * starting at once one migrates and the other then finds nothing to do. Each migration and its
 * schema_migrations row commit together (PostgreSQL's DDL is transactional).
 */
export async function migratePostgres(db: PgDatabase, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = listMigrations('postgres', dir);
  const client = await db.pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL,
        applied_at TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))`);
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const done = new Set(rows.map((r) => Number(r.version)));
      const applied: string[] = [];
      for (const m of migrations) {
        if (done.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(`Migration ${m.name} failed on PostgreSQL: ${(err as Error).message}`, { cause: err });
        }
        applied.push(m.name);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch((err: Error) => {
        broken = err; // a connection that cannot unlock is dropped, which releases the lock
      });
    }
  } finally {
    client.release(broken);
  }
}
