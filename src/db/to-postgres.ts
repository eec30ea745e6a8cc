import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './database.js';
import { Db, migrate } from './database.js';
import { migratePostgres } from './migrate.js';
import { sharedSessionSecret } from './open.js';
import { PgDatabase } from './postgres.js';

/**
 * Moving a school from the embedded engine to PostgreSQL (`npm run db:to-postgres`, issue #18):
 * DATA_DIR's SQLite database into an EMPTY PostgreSQL database, all in one transaction, with
 * row counts verified per table. Refuses a target that has rows, or whose migration versions
 * differ from the source's. Media is the CLI's first step when S3_BUCKET is set (to-postgres.cli.ts).
 */
export class MoveRefused extends Error {}

export interface MoveOptions {
  /** the SQLite file (DATA_DIR/app.sqlite) */
  sqliteFile: string;
  /** postgres://… */
  databaseUrl: string;
  /**
   * The SQLite installation's server secret (SESSION_SECRET or DATA_DIR/secret.key). Access codes
   * are stored as HMACs and ciphertexts under it, so it must come along unless SESSION_SECRET is
   * set for the PostgreSQL instances too (then 'env': nothing to move). null: not found, refused
   * when there are codes.
   */
  sessionSecret: string | 'env' | null;
  /** rows per INSERT (bounded by PostgreSQL's 65535 parameters per statement) */
  batchRows?: number;
  log?: (line: string) => void;
}

export interface MoveResult {
  version: number;
  /** table -> rows copied (equal on both sides) */
  counts: Record<string, number>;
  secretMoved: boolean;
}

interface TableInfo {
  name: string;
  columns: string[];
  parents: string[];
}

/** Tables of the SQLite file (not its own bookkeeping), parents before children. */
function tablesInForeignKeyOrder(lite: Db): TableInfo[] {
  const names = lite
    .allSync<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name")
    .map((r) => r.name);
  const info = new Map<string, TableInfo>();
  for (const name of names) {
    const columns = (lite.raw.pragma(`table_info("${name}")`) as { name: string }[]).map((c) => c.name);
    const parents = [...new Set((lite.raw.pragma(`foreign_key_list("${name}")`) as { table: string }[]).map((f) => f.table))].filter((p) => p !== name);
    info.set(name, { name, columns, parents });
  }
  const ordered: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`Foreign keys form a cycle through ${name}`);
    state.set(name, 'visiting');
    for (const p of info.get(name)?.parents ?? []) visit(p);
    state.set(name, 'done');
    ordered.push(info.get(name)!);
  };
  for (const name of names) visit(name);
  return ordered;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function versions(db: Database): Promise<number[]> {
  return (await db.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version);
}

export async function moveToPostgres(options: MoveOptions): Promise<MoveResult> {
  const log = options.log ?? (() => undefined);
  if (!fs.existsSync(options.sqliteFile)) throw new MoveRefused(`There is no SQLite database at ${options.sqliteFile}: nothing to move.`);
  // the same migrations a start on SQLite would apply, so both sides reach the same version
  const lite = new Db(options.sqliteFile);
  const target = new PgDatabase({ url: options.databaseUrl, poolMax: 2 });
  try {
    migrate(lite);
    await migratePostgres(target);
    const [from, to] = [await versions(lite), await versions(target)];
    if (from.join(',') !== to.join(',')) {
      throw new MoveRefused(
        `Migration versions differ: SQLite has ${from.join(', ')}, PostgreSQL has ${to.join(', ')}. Run this with the release that made the SQLite database.`,
      );
    }
    const tables = tablesInForeignKeyOrder(lite);
    const targetTables = new Set(
      (await target.all<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()')).map((r) => r.name),
    );
    const missing = tables.filter((t) => !targetTables.has(t.name)).map((t) => t.name);
    if (missing.length) throw new MoveRefused(`PostgreSQL lacks tables the SQLite database has: ${missing.join(', ')}.`);
    const busy: string[] = [];
    for (const t of tables) {
      if (await target.first(`SELECT 1 AS x FROM ${quoteIdent(t.name)} LIMIT 1`)) busy.push(t.name);
    }
    if (busy.length) {
      throw new MoveRefused(
        `The PostgreSQL database is not empty (rows in ${busy.join(', ')}). Moving needs an empty database: ` +
          'was it moved already, or has an instance started on it? Create a new database and point DATABASE_URL at it.',
      );
    }
    const codes = lite.firstSync<{ n: number }>('SELECT COUNT(*) AS n FROM access_codes')!.n;
    if (codes > 0 && !options.sessionSecret) {
      throw new MoveRefused(
        'The SQLite installation has access codes but its server secret was not found (DATA_DIR/secret.key): ' +
          'without it no code would log in on PostgreSQL. Set SESSION_SECRET to the value the SQLite installation used.',
      );
    }

    // videos.questions_rev (migration 012) is copied like any column; PostgreSQL's triggers then
    // add 1 per copied segment, question, variant and pick. Harmless: a revision only has to move
    // when served questions change, and a fresh database has no instance with a cache yet.
    const secret = options.sessionSecret === 'env' ? null : options.sessionSecret;
    const counts: Record<string, number> = {};
    const batch = Math.max(1, options.batchRows ?? 500);
    // a consistent snapshot of the source even if the service is still running on it
    lite.raw.exec('BEGIN');
    try {
      await target.transaction(async (tx) => {
        for (const t of tables) {
          const perStatement = Math.max(1, Math.min(batch, Math.floor(60_000 / t.columns.length)));
          const cols = t.columns.map(quoteIdent).join(', ');
          const rowMarks = `(${t.columns.map(() => '?').join(', ')})`;
          let copied = 0;
          let chunk: unknown[][] = [];
          const flush = async () => {
            if (!chunk.length) return;
            await tx.run(`INSERT INTO ${quoteIdent(t.name)} (${cols}) VALUES ${chunk.map(() => rowMarks).join(', ')}`, chunk.flat());
            copied += chunk.length;
            chunk = [];
          };
          for (const row of lite.raw
            .prepare(`SELECT ${cols} FROM ${quoteIdent(t.name)}`)
            .raw()
            .iterate() as Iterable<unknown[]>) {
            chunk.push(row);
            if (chunk.length >= perStatement) await flush();
          }
          await flush();
          const source = lite.firstSync<{ n: number }>(`SELECT COUNT(*) AS n FROM ${quoteIdent(t.name)}`)!.n;
          const landed = (await tx.first<{ n: number }>(`SELECT COUNT(*) AS n FROM ${quoteIdent(t.name)}`))!.n;
          if (source !== copied || landed !== source) {
            throw new Error(`Row counts differ for ${t.name}: SQLite ${source}, copied ${copied}, PostgreSQL ${landed}`);
          }
          counts[t.name] = landed;
        }
        await resetIdentities(tx, lite);
        if (secret) await sharedSessionSecret(tx, secret);
      });
    } finally {
      lite.raw.exec('COMMIT');
    }
    for (const [table, n] of Object.entries(counts)) log(`${table.padEnd(24)} ${String(n).padStart(8)} rows`);
    return { version: Math.max(0, ...from), counts, secretMoved: Boolean(secret) };
  } finally {
    await lite.close();
    await target.close();
  }
}

/**
 * Identity columns continue after the highest id copied, or after SQLite's AUTOINCREMENT counter
 * when that is higher (ids of deleted rows are never handed out again, as on SQLite).
 */
async function resetIdentities(tx: Database, lite: Db): Promise<void> {
  const identities = await tx.all<{ table_name: string; column_name: string }>(
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'",
  );
  const hasSequences = lite.firstSync("SELECT 1 AS x FROM sqlite_master WHERE name = 'sqlite_sequence'");
  for (const { table_name: table, column_name: column } of identities) {
    const seq = hasSequences ? (lite.firstSync<{ seq: number }>('SELECT seq FROM sqlite_sequence WHERE name = ?', [table])?.seq ?? 0) : 0;
    const max = (await tx.first<{ m: number | null }>(`SELECT MAX(${quoteIdent(column)}) AS m FROM ${quoteIdent(table)}`))!.m ?? 0;
    const last = Math.max(seq, max);
    // setval(seq, 1, false): the next id is 1 (empty table); else the next is last + 1
    await tx.first('SELECT setval(pg_get_serial_sequence(?, ?), ?, ?) AS v', [quoteIdent(table), column, Math.max(last, 1), last > 0]);
  }
}
