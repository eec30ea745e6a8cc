import { describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase } from '../helpers/pg-cluster.js';

const pgUrl = inject('pgUrl');

describe.skipIf(!pgUrl)('the test run’s PostgreSQL cluster', () => {
  it('gives each test file its own database and drops it', async () => {
    const db = await createTestDatabase(pgUrl);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('CREATE TABLE t (id SERIAL PRIMARY KEY, name TEXT)');
    const { rows } = await client.query("INSERT INTO t (name) VALUES ('a') RETURNING id, current_setting('fsync') AS fsync");
    expect(rows).toEqual([{ id: 1, fsync: pgUrl === process.env.TEST_DATABASE_URL ? rows[0].fsync : 'off' }]);
    await client.end();
    await db.drop();
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    const left = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [new URL(db.url).pathname.slice(1)]);
    await admin.end();
    expect(left.rowCount).toBe(0);
  });
});
