import { PgDatabase } from '../../src/db/postgres.js';
import { pgQueue, stepHandler } from './pg-jobs.js';

/**
 * A worker process for the pg-boss tests: `node --import tsx test/jobs/pg-worker.ts <url> <concurrency>`.
 * Like src/worker.ts but with the tests' step handler (the pipeline's handlers need the whole
 * service): a PgBossJobQueue on its own connections, SIGTERM cancels its running jobs and exits 0.
 */
const [url, concurrency] = process.argv.slice(2);
const db = new PgDatabase({ url: url!, poolMax: 3 });
const queue = pgQueue(db, url!, Number(concurrency ?? 1));
queue.handle('frames', stepHandler);
await queue.start();
const alive = setInterval(() => undefined, 1 << 30);
process.stderr.write('worker ready\n');
process.on('SIGTERM', () => {
  void (async () => {
    await queue.close();
    await db.close();
    clearInterval(alive);
    process.exit(0);
  })();
});
