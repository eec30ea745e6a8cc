import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { connectDatabase } from '../../src/db/open.js';
import { holdLease, SharedRateLimit } from '../../src/coordination/shared-limits.js';
import { createTestDatabase } from '../helpers/pg-cluster.js';

interface Pair {
  a: Database;
  b: Database;
  close(): Promise<void>;
}

const pgUrl = inject('pgUrl');

/** Two connections to one database (one SQLite file, or one PostgreSQL database) stand for two instances. */
const engines: [string, () => Promise<Pair>][] = [
  [
    'sqlite',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-coord-'));
      const settings = { dataDir: dir, DATABASE_URL: undefined, DATABASE_POOL_MAX: 2 };
      const a = await connectDatabase(settings);
      const b = await connectDatabase(settings);
      return {
        a,
        b,
        async close() {
          await a.close();
          await b.close();
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];
if (pgUrl) {
  engines.push([
    'postgres',
    async () => {
      const made = await createTestDatabase(pgUrl, 'coord');
      const settings = { dataDir: '/nonexistent', DATABASE_URL: made.url, DATABASE_POOL_MAX: 4 };
      const a = await connectDatabase(settings);
      const b = await connectDatabase(settings);
      return {
        a,
        b,
        async close() {
          await a.close();
          await b.close();
          await made.drop();
        },
      };
    },
  ]);
}

describe.each(engines)('limits and leases shared through the database (%s)', (engine, open) => {
  let inst: Pair;
  afterEach(async () => inst?.close());
  const twoInstances = open;

  it('counts hits from every instance in one window and frees slots as they age out', async () => {
    inst = await twoInstances();
    let now = 1_000_000;
    const onA = new SharedRateLimit(inst.a, 'runs', 3, 60_000, () => now);
    const onB = new SharedRateLimit(inst.b, 'runs', 3, 60_000, () => now);
    expect((await onA.take('child-1')).allowed).toBe(true);
    now += 10_000;
    expect((await onB.take('child-1')).allowed).toBe(true);
    expect((await onA.take('child-1')).allowed).toBe(true);
    const refused = await onB.take('child-1');
    expect(refused).toEqual({ allowed: false, retryAfterMs: 50_000 }); // the first hit leaves the window in 50 s
    expect((await onB.take('child-2')).allowed).toBe(true); // another person has their own window
    expect((await new SharedRateLimit(inst.a, 'hints', 3, 60_000, () => now).take('child-1')).allowed).toBe(true); // another limit too
    now += 50_001;
    expect((await onB.take('child-1')).allowed).toBe(true);
    const rows = await inst.a.all<{ n: number }>("SELECT COUNT(*) AS n FROM rate_hits WHERE key = 'runs:child-1'");
    expect(rows[0]!.n).toBe(3); // the aged-out hit was removed
  });

  it('admits exactly max hits when both instances race for the last slots', async () => {
    inst = await twoInstances();
    const now = 9_000_000;
    const onA = new SharedRateLimit(inst.a, 'race', 5, 60_000, () => now);
    // Two SQLite connections in one thread would block each other in busy_timeout (a real second
    // instance is another process); on SQLite the race is between requests on one connection.
    const onB = new SharedRateLimit(engine === 'sqlite' ? inst.a : inst.b, 'race', 5, 60_000, () => now);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? onA : onB).take('k')));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  it('refuses everything when the limit is zero', async () => {
    inst = await twoInstances();
    expect((await new SharedRateLimit(inst.a, 'judge', 0, 3_600_000).take('x')).allowed).toBe(false);
  });

  it('lets one instance hold a lease, the other waits until it is released or expires', async () => {
    inst = await twoInstances();
    let now = 5_000_000;
    const first = await holdLease(inst.a, 'generate:vid1', 60_000, () => now);
    expect(first?.held).toBe(true);
    expect(await holdLease(inst.b, 'generate:vid1', 60_000, () => now)).toBeNull();
    expect(await holdLease(inst.b, 'generate:vid2', 60_000, () => now)).not.toBeNull();
    await first!.release();
    const second = await holdLease(inst.b, 'generate:vid1', 60_000, () => now);
    expect(second).not.toBeNull();
    // the holder crashes (never releases): after the ttl another instance may take it
    now += 60_001;
    const third = await holdLease(inst.a, 'generate:vid1', 60_000, () => now);
    expect(third).not.toBeNull();
    // the old holder's release must not free the new holder's lease
    await second!.release();
    expect(await holdLease(inst.b, 'generate:vid1', 60_000, () => now)).toBeNull();
    await third!.release();
    expect(await inst.a.all("SELECT name FROM leases WHERE name = 'generate:vid1'")).toEqual([]);
  });
});
