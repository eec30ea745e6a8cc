import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { migratePostgres } from '../../src/db/migrate.js';
import { PgDatabase } from '../../src/db/postgres.js';
import {
  beat,
  claimJob,
  countQueued,
  failStaleJobs,
  finishJob,
  getJob,
  insertJob,
  listJobs,
  requestCancel,
  saveProgress,
} from '../../src/jobs/jobs.repository.js';
import { createTestDatabase } from '../helpers/pg-cluster.js';

/**
 * The jobs repository's SQL on both engines, the same assertions on each: the queue order of
 * jobs enqueued in one millisecond, the atomic claim, cancel requests, the heartbeat and the
 * stale sweep. PostgreSQL runs on the test run's cluster (skipped when it is off).
 */
const pgUrl = inject('pgUrl');

interface Engine {
  name: string;
  available: boolean;
  open(): Promise<{ db: Database; close(): Promise<void> }>;
}

const engines: Engine[] = [
  {
    name: 'SQLite',
    available: true,
    async open() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-jobsrepo-'));
      const db = openDatabase(path.join(dir, 'app.sqlite'));
      return {
        db,
        close: async () => {
          await db.close();
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    available: Boolean(pgUrl),
    async open() {
      const database = await createTestDatabase(pgUrl, 'jobsrepo');
      const db = new PgDatabase({ url: database.url, poolMax: 4 });
      await migratePostgres(db);
      return {
        db,
        close: async () => {
          await db.close();
          await database.drop();
        },
      };
    },
  },
];

for (const engine of engines) {
  describe.skipIf(!engine.available)(`jobs repository on ${engine.name}`, () => {
    let db: Database;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ db, close } = await engine.open());
    }, 60_000);
    afterAll(async () => close?.());

    const add = (id: string, kind: 'download' | 'frames' = 'frames') => insertJob(db, { id, kind, videoId: null, input: { n: id }, message: 'Waiting' });
    const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

    it('keeps the order of jobs enqueued in one go; claims oldest first, each once, only for the given kinds', async () => {
      // ids in reverse order, so an order by id alone would be wrong
      for (const n of [9, 8, 7]) await add(uuid(n));
      await add(uuid(6), 'download');
      expect(await countQueued(db)).toBe(4);
      expect((await listJobs(db, { limit: 10 })).map((j) => j.id)).toEqual([uuid(6), uuid(7), uuid(8), uuid(9)]);
      // (one after the other: on PostgreSQL two claims at once may both pick the same row and one get
      // nothing; there pg-boss dispatches, with SKIP LOCKED, and the claim is by id)
      const claimed = [await claimJob(db, { kinds: ['frames'] }), await claimJob(db, { kinds: ['frames'] })];
      expect(claimed.map((j) => j?.id).sort()).toEqual([uuid(8), uuid(9)]);
      for (const j of claimed) expect(j).toMatchObject({ state: 'running', message: 'Started', startedAt: expect.any(String) });
      // by id: only a queued job; a running one is not claimed again
      expect(await claimJob(db, { id: uuid(9) })).toBeUndefined();
      expect(await claimJob(db, { id: uuid(7) })).toMatchObject({ id: uuid(7), state: 'running' });
      expect(await claimJob(db, { kinds: ['frames'] })).toBeUndefined();
      expect(await countQueued(db)).toBe(1);
      expect((await listJobs(db, { active: true, kind: 'download' })).map((j) => j.id)).toEqual([uuid(6)]);
    });

    it('a cancel request marks a running job and keeps its message over later progress; a finished job is not touched', async () => {
      expect(await requestCancel(db, uuid(9), 'admin')).toBe(true);
      await saveProgress(db, uuid(9), 0.5, 'Step 5');
      expect(await getJob(db, uuid(9))).toMatchObject({ cancelRequested: 'admin', message: 'Cancelling', progress: 0.5 });
      // the first reason stays
      await requestCancel(db, uuid(9), 'shutdown');
      expect((await getJob(db, uuid(9)))!.cancelRequested).toBe('admin');
      expect(
        await finishJob(db, uuid(9), { state: 'cancelled', result: { n: 1 }, error: 'Cancelled by the admin.', message: 'Cancelled by the admin.' }, [
          'running',
        ]),
      ).toBe(true);
      expect(await finishJob(db, uuid(9), { state: 'failed', result: null, error: 'x', message: 'x' })).toBe(false);
      expect(await requestCancel(db, uuid(9), 'admin')).toBe(false);
      expect(await getJob(db, uuid(9))).toMatchObject({ state: 'cancelled', result: { n: 1 }, finishedAt: expect.any(String) });
      // a queued job cannot be finished from 'running' only
      expect(await finishJob(db, uuid(6), { state: 'cancelled', result: null, error: 'x', message: 'x' }, ['running'])).toBe(false);
    });

    it('the stale sweep fails running jobs whose heartbeat is old, and only those', async () => {
      await beat(db, [uuid(8), uuid(7)]);
      expect(await failStaleJobs(db, 60_000, 'gone')).toEqual([]);
      await db.run('UPDATE jobs SET heartbeat_at = ? WHERE id = ?', ['2020-01-01T00:00:00.000Z', uuid(8)]);
      const swept = await failStaleJobs(db, 60_000, 'The worker stopped responding.');
      expect(swept.map((j) => j.id)).toEqual([uuid(8)]);
      expect(await getJob(db, uuid(8))).toMatchObject({
        state: 'failed',
        error: 'The worker stopped responding.',
        message: 'The worker stopped responding.',
        finishedAt: expect.any(String),
      });
      expect((await getJob(db, uuid(7)))!.state).toBe('running');
      // staleMs 0: every running job (the embedded server's start)
      expect((await failStaleJobs(db, 0, 'gone')).map((j) => j.id)).toEqual([uuid(7)]);
      expect((await getJob(db, uuid(6)))!.state).toBe('queued');
    });

    it('counts a heartbeat exactly staleMs old as stale (staleMs 0: a beat in the same millisecond as the sweep)', async () => {
      const at = '2030-01-01T00:00:00.000Z';
      await add(uuid(20));
      expect(await claimJob(db, { id: uuid(20) })).toMatchObject({ state: 'running' });
      await db.run('UPDATE jobs SET heartbeat_at = ? WHERE id = ?', [at, uuid(20)]);
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(at) });
      try {
        expect((await failStaleJobs(db, 0, 'gone')).map((j) => j.id)).toEqual([uuid(20)]);
      } finally {
        vi.useRealTimers();
      }
    });
  });
}
