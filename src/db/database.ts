import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';

export type SqlParams = Record<string, unknown> | unknown[];

/**
 * A thin wrapper over better-sqlite3: bound parameters only, one place for pragmas
 * and migrations. Statements are cached by SQL text.
 */
export class Db {
  readonly raw: BetterSqlite3.Database;
  private readonly cache = new Map<string, BetterSqlite3.Statement>();

  constructor(file: string) {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    this.raw = new BetterSqlite3(file);
    this.raw.pragma('journal_mode = WAL');
    this.raw.pragma('foreign_keys = ON');
    this.raw.pragma('busy_timeout = 5000');
    this.raw.pragma('synchronous = NORMAL');
  }

  private stmt(sql: string): BetterSqlite3.Statement {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.raw.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }

  all<T = Record<string, unknown>>(sql: string, params: SqlParams = []): T[] {
    return this.stmt(sql).all(params as never) as T[];
  }

  first<T = Record<string, unknown>>(sql: string, params: SqlParams = []): T | undefined {
    return this.stmt(sql).get(params as never) as T | undefined;
  }

  run(sql: string, params: SqlParams = []): { changes: number; lastInsertRowid: number | bigint } {
    return this.stmt(sql).run(params as never);
  }

  /** Runs fn in one transaction (nested calls become savepoints). */
  transaction<T>(fn: () => T): T {
    return this.raw.transaction(fn)();
  }

  close(): void {
    this.cache.clear();
    if (this.raw.open) this.raw.close();
  }
}

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Applies numbered migrations (`NNN-name.sql`) in order, each in its own transaction,
 * recording them in schema_migrations. A file already applied is never run again.
 */
export function migrate(db: Db, dir = MIGRATIONS_DIR): string[] {
  db.raw.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (datetime('now')))`);
  const done = new Set(db.all<{ version: number }>('SELECT version FROM schema_migrations').map((r) => r.version));
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}-[a-z0-9-]+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  for (const file of files) {
    const version = Number(file.slice(0, 3));
    if (done.has(version)) continue;
    const sql = fs.readFileSync(path.join(dir, file), 'utf8');
    db.transaction(() => {
      db.raw.exec(sql);
      db.run('INSERT INTO schema_migrations (version, name) VALUES (?, ?)', [version, file]);
    });
    applied.push(file);
  }
  return applied;
}

export function openDatabase(file: string): Db {
  const db = new Db(file);
  migrate(db);
  return db;
}
