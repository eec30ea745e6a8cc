import pg from 'pg';
import type { Database, RunResult, SqlParams } from './database.js';
import { bindValues, type PgStatement, rewritePlaceholders } from './sql-params.js';

/**
 * The PostgreSQL engine of `Database` (issue #18), over one `pg.Pool`. App SQL arrives in the
 * portable subset (see docs/scaling.md): `?`/`@name` placeholders are rewritten to `$n` once per
 * statement text; int8 (COUNT, SUM) and numeric (AVG) come back as JS numbers like SQLite's, so
 * repositories need no per-engine casts.
 */
export interface PostgresOptions {
  /** postgres://… or postgresql://… */
  url: string;
  /** connections at most (DATABASE_POOL_MAX) */
  poolMax?: number;
}

/** int8 (20), numeric (1700) and their arrays as numbers; everything else as pg parses it. */
const INT8 = 20;
const NUMERIC = 1700;
const INT8_ARRAY = 1016;
const NUMERIC_ARRAY = 1231;
const FLOAT8_ARRAY = 1022;
const toNumber = (v: string) => Number(v);
const defaultParser = pg.types.getTypeParser as (oid: number, format: 'text' | 'binary') => (v: string) => unknown;
// Scoped to this adapter's pool through the `types` option, so other pg users (pg-boss) keep pg's defaults.
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary') {
      if (oid === INT8 || oid === NUMERIC) return toNumber;
      if (oid === INT8_ARRAY || oid === NUMERIC_ARRAY) return defaultParser(FLOAT8_ARRAY, 'text');
    }
    return defaultParser(oid, format ?? 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** Distinct statement texts seen; app SQL is a few hundred constant strings, so this stays small. */
const STATEMENT_CACHE_MAX = 2000;

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

class Statements {
  private readonly cache = new Map<string, PgStatement>();
  get(sql: string): PgStatement {
    let s = this.cache.get(sql);
    if (!s) {
      s = rewritePlaceholders(sql);
      if (this.cache.size >= STATEMENT_CACHE_MAX) this.cache.clear();
      this.cache.set(sql, s);
    }
    return s;
  }
}

async function query(on: Queryable, statements: Statements, sql: string, params?: SqlParams): Promise<pg.QueryResult> {
  const stmt = statements.get(sql);
  const values = bindValues(stmt, params);
  // No values: the simple protocol, which also takes several statements (migrations); the last result counts.
  const result = (await (values.length ? on.query(stmt.text, values) : on.query(stmt.text))) as pg.QueryResult | pg.QueryResult[];
  return Array.isArray(result) ? result[result.length - 1]! : result;
}

export class PgDatabase implements Database {
  readonly engine = 'postgres' as const;
  readonly inTransaction = false;
  readonly pool: pg.Pool;
  private readonly statements = new Statements();

  constructor(options: PostgresOptions) {
    this.pool = new pg.Pool({ connectionString: options.url, max: options.poolMax ?? 10, types });
    // An idle connection dropped by the server (restart, failover) emits here; without a listener
    // it would crash the process. The next query takes a fresh connection.
    this.pool.on('error', () => undefined);
  }

  async all<T = Record<string, unknown>>(sql: string, params?: SqlParams): Promise<T[]> {
    return (await query(this.pool, this.statements, sql, params)).rows as T[];
  }

  async first<T = Record<string, unknown>>(sql: string, params?: SqlParams): Promise<T | undefined> {
    return (await query(this.pool, this.statements, sql, params)).rows[0] as T | undefined;
  }

  async run(sql: string, params?: SqlParams): Promise<RunResult> {
    return { changes: (await query(this.pool, this.statements, sql, params)).rowCount ?? 0 };
  }

  /** One pooled connection for the whole of fn: BEGIN, fn(tx), COMMIT, or ROLLBACK when fn throws. */
  async transaction<T>(fn: (tx: Database) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const scope = { open: true };
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      try {
        const result = await fn(new PgTx(client, this.statements, scope, 0));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackErr: Error) => {
          broken = rollbackErr; // the connection is unusable: drop it rather than pool it
        });
        throw err;
      }
    } finally {
      scope.open = false;
      client.release(broken);
    }
  }

  /** Ends every pooled connection; waits for queries in flight. */
  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}

/** The handle inside a transaction: every query on its one connection; nested calls are savepoints. */
class PgTx implements Database {
  readonly engine = 'postgres' as const;
  readonly inTransaction = true;
  constructor(
    private readonly client: pg.PoolClient,
    private readonly statements: Statements,
    private readonly scope: { open: boolean },
    private readonly depth: number,
  ) {}

  private on(): pg.PoolClient {
    // a handle kept past its transaction would run on a connection another request now owns
    if (!this.scope.open) throw new Error('A transaction handle was used after its transaction ended');
    return this.client;
  }

  async all<T = Record<string, unknown>>(sql: string, params?: SqlParams): Promise<T[]> {
    return (await query(this.on(), this.statements, sql, params)).rows as T[];
  }

  async first<T = Record<string, unknown>>(sql: string, params?: SqlParams): Promise<T | undefined> {
    return (await query(this.on(), this.statements, sql, params)).rows[0] as T | undefined;
  }

  async run(sql: string, params?: SqlParams): Promise<RunResult> {
    return { changes: (await query(this.on(), this.statements, sql, params)).rowCount ?? 0 };
  }

  async transaction<T>(fn: (tx: Database) => Promise<T>): Promise<T> {
    const client = this.on();
    const name = `sp${this.depth + 1}`;
    await client.query(`SAVEPOINT ${name}`);
    try {
      const result = await fn(new PgTx(client, this.statements, this.scope, this.depth + 1));
      await client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (err) {
      await client.query(`ROLLBACK TO SAVEPOINT ${name}`);
      await client.query(`RELEASE SAVEPOINT ${name}`);
      throw err;
    }
  }
}

/** Whether a DATABASE_URL names PostgreSQL (else the embedded SQLite file is used). */
export function isPostgresUrl(url: string | undefined): url is string {
  return typeof url === 'string' && /^postgres(?:ql)?:\/\//i.test(url);
}
