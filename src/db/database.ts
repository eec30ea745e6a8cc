import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { migrate } from './migrate.js';

export { migrate } from './migrate.js';

export type SqlParams = Record<string, unknown> | unknown[];

export interface RunResult {
  changes: number;
}

/**
 * The data layer every repository talks to. Two engines implement it: SQLite (this file, the
 * embedded default) and PostgreSQL (issue #18). SQL is written once, in the subset both
 * engines speak: `?` or `@name` parameters, `RETURNING` instead of last-insert ids, text
 * timestamps. Everything is async because PostgreSQL is.
 */
export interface Database {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * True for the `tx` handle a transaction's fn gets (what it reads may be uncommitted, so a
   * cache shared by the instance must not keep it); false for the root handle.
   */
  readonly inTransaction: boolean;
  all<T = Record<string, unknown>>(sql: string, params?: SqlParams): Promise<T[]>;
  first<T = Record<string, unknown>>(sql: string, params?: SqlParams): Promise<T | undefined>;
  run(sql: string, params?: SqlParams): Promise<RunResult>;
  /**
   * Runs fn in one transaction on one connection: every query inside must go through `tx`
   * (on SQLite a query on the outer handle waits for the transaction to end). A nested call on
   * `tx` becomes a savepoint. Rolled back when fn throws.
   */
  transaction<T>(fn: (tx: Database) => Promise<T>): Promise<T>;
}

/** How long a query outside a transaction waits for it before giving up (a query on the wrong handle). */
const TX_WAIT_MS = 15_000;

/**
 * A thin wrapper over better-sqlite3: bound parameters only, one place for pragmas
 * and migrations. Statements are cached by SQL text.
 *
 * The async methods implement `Database`. better-sqlite3 itself is synchronous, so a query is
 * done by the time its promise exists; only a transaction spans awaits, and while one is open
 * every other query waits for it (one connection, so interleaving would put them inside it).
 * The `*Sync` methods are SQLite's own synchronous API, for the code that is about the SQLite
 * file itself (the migration runner, `db:to-postgres` reading the old file); everything else uses
 * the async `Database` interface, so it runs on PostgreSQL too (test/db/no-sync.test.ts).
 */
export class Db implements Database {
  readonly engine = 'sqlite' as const;
  readonly inTransaction = false;
  /** resolves when the open transaction (if any) ends */
  private txDone: Promise<void> | null = null;
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

  allSync<T = Record<string, unknown>>(sql: string, params: SqlParams = []): T[] {
    return this.stmt(sql).all(params as never) as T[];
  }

  firstSync<T = Record<string, unknown>>(sql: string, params: SqlParams = []): T | undefined {
    return this.stmt(sql).get(params as never) as T | undefined;
  }

  runSync(sql: string, params: SqlParams = []): { changes: number; lastInsertRowid: number | bigint } {
    return this.stmt(sql).run(params as never);
  }

  /** Runs fn in one transaction (nested calls become savepoints). */
  transactionSync<T>(fn: () => T): T {
    return this.raw.transaction(fn)();
  }

  private async idle(): Promise<void> {
    if (!this.txDone) return;
    const started = Date.now();
    while (this.txDone) {
      if (Date.now() - started > TX_WAIT_MS) {
        throw new Error("A query waited too long for a transaction: inside db.transaction(fn), query through fn's tx");
      }
      await Promise.race([this.txDone, new Promise((r) => setTimeout(r, TX_WAIT_MS).unref())]);
    }
  }

  async all<T = Record<string, unknown>>(sql: string, params: SqlParams = []): Promise<T[]> {
    if (this.txDone) await this.idle();
    return this.stmt(sql).all(params as never) as T[];
  }

  async first<T = Record<string, unknown>>(sql: string, params: SqlParams = []): Promise<T | undefined> {
    if (this.txDone) await this.idle();
    return this.stmt(sql).get(params as never) as T | undefined;
  }

  async run(sql: string, params: SqlParams = []): Promise<RunResult> {
    if (this.txDone) await this.idle();
    return { changes: this.stmt(sql).run(params as never).changes };
  }

  async transaction<T>(fn: (tx: Database) => Promise<T>): Promise<T> {
    while (this.txDone) await this.idle();
    let end!: () => void;
    this.txDone = new Promise<void>((r) => {
      end = r;
    });
    try {
      this.raw.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(new SqliteTx(this, 0));
        this.raw.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.raw.inTransaction) this.raw.exec('ROLLBACK');
        throw err;
      }
    } finally {
      this.txDone = null;
      end();
    }
  }

  /** @internal the transaction handle's way in, past the wait */
  stmtFor(sql: string): BetterSqlite3.Statement {
    return this.stmt(sql);
  }

  /** Closes the file at once (synchronously, before the promise exists); async to match PostgreSQL's close. */
  async close(): Promise<void> {
    this.cache.clear();
    if (this.raw.open) this.raw.close();
  }
}

/** The handle inside a SQLite transaction: runs at once, nested transactions become savepoints. */
class SqliteTx implements Database {
  readonly engine = 'sqlite' as const;
  readonly inTransaction = true;
  constructor(
    private readonly db: Db,
    private readonly depth: number,
  ) {}

  async all<T = Record<string, unknown>>(sql: string, params: SqlParams = []): Promise<T[]> {
    return this.db.stmtFor(sql).all(params as never) as T[];
  }

  async first<T = Record<string, unknown>>(sql: string, params: SqlParams = []): Promise<T | undefined> {
    return this.db.stmtFor(sql).get(params as never) as T | undefined;
  }

  async run(sql: string, params: SqlParams = []): Promise<RunResult> {
    return { changes: this.db.stmtFor(sql).run(params as never).changes };
  }

  async transaction<T>(fn: (tx: Database) => Promise<T>): Promise<T> {
    const name = `sp${this.depth + 1}`;
    this.db.raw.exec(`SAVEPOINT ${name}`);
    try {
      const result = await fn(new SqliteTx(this.db, this.depth + 1));
      this.db.raw.exec(`RELEASE ${name}`);
      return result;
    } catch (err) {
      this.db.raw.exec(`ROLLBACK TO ${name}`);
      this.db.raw.exec(`RELEASE ${name}`);
      throw err;
    }
  }
}

/** The SQLite file at `file`, migrated (tests, benches, the embedded default; see open.ts for the engine choice). */
export function openDatabase(file: string): Db {
  const db = new Db(file);
  migrate(db);
  return db;
}
