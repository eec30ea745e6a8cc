import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Db, migrate } from '../../src/db/database.js';
import { listMigrations, MIGRATIONS_DIR, migratePostgres } from '../../src/db/migrate.js';
import { PgDatabase } from '../../src/db/postgres.js';
import { createTestDatabase } from '../helpers/pg-cluster.js';

const pgUrl = inject('pgUrl');

interface Column {
  name: string;
  type: 'int' | 'text' | 'real' | 'blob';
  notnull: boolean;
  pk: boolean;
  hasDefault: boolean;
}
type Schema = Record<string, { columns: Column[]; indexes: string[] }>;

/** SQLite's declared types and PostgreSQL's data types, by the family a JS value comes back as. */
function family(declared: string): Column['type'] {
  const t = declared.toLowerCase();
  if (t === 'integer' || t === 'bigint' || t === 'smallint') return 'int';
  if (t === 'text') return 'text';
  if (t === 'real' || t === 'double precision') return 'real';
  if (t === 'blob' || t === 'bytea') return 'blob';
  throw new Error(`unexpected column type ${declared}`);
}

async function sqliteSchema(db: Db): Promise<Schema> {
  const schema: Schema = {};
  const tables = await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
  for (const { name } of tables) {
    const autoincrement = /AUTOINCREMENT/i.test((await db.first<{ sql: string }>('SELECT sql FROM sqlite_master WHERE name = ?', [name]))!.sql);
    const cols = db.raw.pragma(`table_info(${name})`) as { name: string; type: string; notnull: number; pk: number; dflt_value: string | null }[];
    const indexes = await db.all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name NOT LIKE 'sqlite_autoindex_%' ORDER BY name",
      [name],
    );
    schema[name] = {
      columns: cols.map((c) => ({
        name: c.name,
        type: family(c.type),
        // a primary key column is NOT NULL on PostgreSQL whether or not SQLite says so
        notnull: c.notnull === 1 || c.pk > 0,
        pk: c.pk > 0,
        // an AUTOINCREMENT key is PostgreSQL's identity: both fill it in
        hasDefault: c.dflt_value !== null || (autoincrement && c.pk === 1),
      })),
      indexes: indexes.map((i) => i.name),
    };
  }
  return schema;
}

async function pgSchema(db: PgDatabase): Promise<Schema> {
  const schema: Schema = {};
  const tables = await db.all<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  for (const { name } of tables) {
    const cols = await db.all<{ name: string; type: string; nullable: string; dflt: string | null; identity: string }>(
      `SELECT column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS dflt, is_identity AS identity
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ? ORDER BY ordinal_position`,
      [name],
    );
    const pk = await db.all<{ name: string }>(
      `SELECT k.column_name AS name FROM information_schema.table_constraints c
         JOIN information_schema.key_column_usage k ON k.constraint_name = c.constraint_name AND k.table_name = c.table_name
        WHERE c.table_schema = 'public' AND c.table_name = ? AND c.constraint_type = 'PRIMARY KEY'`,
      [name],
    );
    // indexes created by CREATE INDEX, not the ones behind PRIMARY KEY / UNIQUE constraints
    const indexes = await db.all<{ name: string }>(
      `SELECT i.relname AS name FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
        WHERE t.relname = ? AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid) ORDER BY i.relname`,
      [name],
    );
    const pkNames = new Set(pk.map((p) => p.name));
    schema[name] = {
      columns: cols.map((c) => ({
        name: c.name,
        type: family(c.type),
        notnull: c.nullable === 'NO',
        pk: pkNames.has(c.name),
        hasDefault: c.dflt !== null || c.identity === 'YES',
      })),
      indexes: indexes.map((i) => i.name),
    };
  }
  return schema;
}

describe('the migration list', () => {
  it('gives every PostgreSQL text a SQLite twin, one version each, in order', () => {
    const sqlite = listMigrations('sqlite');
    const postgres = listMigrations('postgres');
    expect(postgres.map((m) => [m.version, m.name])).toEqual(sqlite.map((m) => [m.version, m.name]));
    expect(sqlite.map((m) => m.version)).toEqual([...sqlite.map((m) => m.version)].sort((a, b) => a - b));
    // SQLite-only text that PostgreSQL would refuse or read differently (comments aside)
    for (const m of postgres) {
      expect(m.sql.replace(/--.*$/gm, ''), m.name).not.toMatch(/strftime|datetime\(|AUTOINCREMENT|\bREAL\b|\bBLOB\b|NOCASE/i);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-mig-'));
    try {
      fs.writeFileSync(path.join(dir, '001-a.sql'), 'SELECT 1;');
      fs.writeFileSync(path.join(dir, '002-b.pg.sql'), 'SELECT 1;');
      expect(() => listMigrations('postgres', dir)).toThrow(/002-b.pg.sql has no SQLite twin/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!pgUrl)('migrations on both engines', () => {
  let target: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    target = await createTestDatabase(pgUrl, 'migrations');
  });
  afterAll(async () => target.drop());

  it('make the same tables, columns, keys and indexes on SQLite and PostgreSQL, and store timestamps as the same ISO text', async () => {
    const lite = new Db(':memory:');
    const pgdb = new PgDatabase({ url: target.url });
    try {
      const all = listMigrations('sqlite').map((m) => m.name);
      expect(migrate(lite)).toEqual(all);
      expect(await migratePostgres(pgdb)).toEqual(all);
      const [a, b] = [await sqliteSchema(lite), await pgSchema(pgdb)];
      expect(Object.keys(b)).toEqual(Object.keys(a));
      for (const table of Object.keys(a)) {
        // schema_migrations.applied_at: SQLite's predates this check (datetime('now'))
        expect(b[table], table).toEqual(a[table]);
      }
      // the same row triggers (migration 012's questions_rev): table and event, on both engines
      const liteTriggers = (await lite.all<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'trigger'")).map((t) => {
        const m = /AFTER (INSERT|UPDATE|DELETE) ON (\w+)/i.exec(t.sql)!;
        return `${m[2]} ${m[1]!.toUpperCase()}`;
      });
      const pgTriggers = (
        await pgdb.all<{ t: string; e: string }>("SELECT event_object_table AS t, event_manipulation AS e FROM information_schema.triggers WHERE action_timing = 'AFTER'")
      ).map((r) => `${r.t} ${r.e}`);
      expect(liteTriggers.length).toBeGreaterThanOrEqual(12);
      expect(pgTriggers.sort()).toEqual(liteTriggers.sort());
      // the same versions recorded, and a second run applies nothing
      expect(await pgdb.all('SELECT version, name FROM schema_migrations ORDER BY version')).toEqual(
        await lite.all('SELECT version, name FROM schema_migrations ORDER BY version'),
      );
      expect(await migratePostgres(pgdb)).toEqual([]);
      // a default timestamp is what JS toISOString() writes, on both engines
      for (const db of [lite, pgdb] as const) {
        await db.run("INSERT INTO experts (id, display_name) VALUES ('e1', 'E')");
        const row = await db.first<{ created_at: string }>("SELECT created_at FROM experts WHERE id = 'e1'");
        expect(row!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(new Date(row!.created_at).toISOString()).toBe(row!.created_at);
        const id = await db.first<{ id: number }>("INSERT INTO classes (expert_id, name) VALUES ('e1', 'c') RETURNING id");
        expect(id).toEqual({ id: 1 });
        // epoch milliseconds fit (PostgreSQL's INTEGER is 4 bytes; these columns are BIGINT there)
        await db.run('INSERT INTO sessions (sid, sess, expires_at) VALUES (?, ?, ?)', ['s', '{}', Date.UTC(2030, 0, 1)]);
        expect(await db.first('SELECT expires_at FROM sessions')).toEqual({ expires_at: Date.UTC(2030, 0, 1) });
      }
    } finally {
      await lite.close();
      await pgdb.close();
    }
  });

  it('migrates once when two instances start together on one empty database', async () => {
    const fresh = await createTestDatabase(pgUrl, 'migrace');
    const [one, two] = [new PgDatabase({ url: fresh.url }), new PgDatabase({ url: fresh.url })];
    try {
      const results = await Promise.all([migratePostgres(one), migratePostgres(two)]);
      const all = listMigrations('postgres').map((m) => m.name);
      expect(results.map((r) => r.length).sort()).toEqual([0, all.length]);
      expect(await one.first('SELECT COUNT(*) AS n FROM schema_migrations')).toEqual({ n: all.length });
    } finally {
      await one.close();
      await two.close();
      await fresh.drop();
    }
  });

  it('rolls back a failing migration with its version, leaving the earlier ones applied', async () => {
    const fresh = await createTestDatabase(pgUrl, 'migfail');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-mig-'));
    const db = new PgDatabase({ url: fresh.url });
    try {
      fs.copyFileSync(path.join(MIGRATIONS_DIR, '001-accounts.sql'), path.join(dir, '001-accounts.sql'));
      fs.copyFileSync(path.join(MIGRATIONS_DIR, '001-accounts.pg.sql'), path.join(dir, '001-accounts.pg.sql'));
      fs.writeFileSync(path.join(dir, '002-broken.sql'), 'CREATE TABLE half (id INTEGER);\nCREATE TABLE nope (id NOSUCHTYPE);');
      await expect(migratePostgres(db, dir)).rejects.toThrow(/002-broken.sql failed on PostgreSQL/);
      expect(await db.all('SELECT version FROM schema_migrations')).toEqual([{ version: 1 }]);
      expect(await db.first("SELECT to_regclass('half') AS t")).toEqual({ t: null });
      expect(await db.first("SELECT to_regclass('experts') AS t")).toEqual({ t: 'experts' });
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
      await fresh.drop();
    }
  });
});
