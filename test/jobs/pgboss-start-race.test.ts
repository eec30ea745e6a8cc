import PgBoss from 'pg-boss';
import { describe, expect, inject, it } from 'vitest';
import { ensureQueue } from '../../src/jobs/pgboss-queue.js';
import { createTestDatabase } from '../helpers/pg-cluster.js';

/**
 * Instances that start at the same moment on one PostgreSQL database (a deploy, a district's web
 * instances and workers restarted together) each make sure the job queue exists; pg-boss's own
 * createQueue can deadlock against itself there (seen in CI: "deadlock detected" at start).
 */
const pgUrl = inject('pgUrl');
const raceError = (code: string) => Object.assign(new Error(`postgres ${code}`), { code });

describe('ensureQueue', () => {
  it('asks again after losing a race and finds the queue the winner made', async () => {
    let made = false;
    const calls: string[] = [];
    const boss = {
      getQueue: async (name: string) => {
        calls.push(`get ${name}`);
        return made ? ({ name } as PgBoss.QueueResult) : null;
      },
      createQueue: async (name: string) => {
        calls.push(`create ${name}`);
        made = true; // the other instance's transaction won
        throw raceError('40P01');
      },
    };
    await ensureQueue(boss, 'q', { retryLimit: 0 });
    expect(calls).toEqual(['get q', 'create q', 'get q']);
  });

  it('does not create a queue that exists, and passes the options', async () => {
    const created: unknown[] = [];
    let exists = false;
    const boss = {
      getQueue: async (name: string) => (exists ? ({ name } as PgBoss.QueueResult) : null),
      createQueue: async (_name: string, options?: PgBoss.Queue) => {
        created.push(options);
        exists = true;
      },
    };
    await ensureQueue(boss, 'q', { retryLimit: 0, expireInSeconds: 60 });
    await ensureQueue(boss, 'q', { retryLimit: 0, expireInSeconds: 60 });
    expect(created).toEqual([{ name: 'q', retryLimit: 0, expireInSeconds: 60 }]);
  });

  it('gives up on other errors at once, and on a race that never ends after its attempts', async () => {
    let creates = 0;
    const failing = (code: string) => ({
      getQueue: async () => null,
      createQueue: async () => {
        creates++;
        throw raceError(code);
      },
    });
    const denied = failing('42501');
    await expect(ensureQueue(denied, 'q', {})).rejects.toMatchObject({ code: '42501' });
    expect(creates).toBe(1);
    creates = 0;
    const stuck = failing('40P01');
    await expect(ensureQueue(stuck, 'q', {}, 3)).rejects.toMatchObject({ code: '40P01' });
    expect(creates).toBe(3);
  });

  it.skipIf(!pgUrl)('on real PostgreSQL: four instances starting at once on a fresh database all get the one queue', async () => {
    for (let round = 0; round < 3; round++) {
      const target = await createTestDatabase(pgUrl!, `queue_race_${round}`);
      const bosses = Array.from({ length: 4 }, () => new PgBoss({ connectionString: target.url, max: 2, schedule: false, supervise: false }));
      try {
        for (const b of bosses) b.on('error', () => undefined);
        await Promise.all(bosses.map((b) => b.start()));
        await Promise.all(bosses.map((b) => ensureQueue(b, 'kvq-jobs', { retryLimit: 0, expireInSeconds: 600 })));
        const queues = (await bosses[0]!.getQueues()).filter((q) => q.name === 'kvq-jobs');
        expect(queues).toHaveLength(1);
        expect(queues[0]).toMatchObject({ retryLimit: 0, expireInSeconds: 600 });
      } finally {
        await Promise.all(bosses.map((b) => b.stop({ graceful: false, wait: true, timeout: 2000 }).catch(() => undefined)));
        await target.drop();
      }
    }
  }, 120_000);
});
