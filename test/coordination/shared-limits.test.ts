import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/database.js';
import { holdLease, SharedRateLimit } from '../../src/coordination/shared-limits.js';

/** Two handles on one SQLite file stand for two instances on one database. */
function twoInstances(): { a: Db; b: Db; close(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-coord-'));
  const file = path.join(dir, 'app.sqlite');
  const a = openDatabase(file);
  const b = openDatabase(file);
  return {
    a,
    b,
    close() {
      a.close();
      b.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('limits and leases shared through the database', () => {
  let inst: ReturnType<typeof twoInstances>;
  afterEach(() => inst?.close());

  it('counts hits from every instance in one window and frees slots as they age out', async () => {
    inst = twoInstances();
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

  it('refuses everything when the limit is zero', async () => {
    inst = twoInstances();
    expect((await new SharedRateLimit(inst.a, 'judge', 0, 3_600_000).take('x')).allowed).toBe(false);
  });

  it('lets one instance hold a lease, the other waits until it is released or expires', async () => {
    inst = twoInstances();
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
