import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { LocalJobQueue } from '../../src/jobs/local-queue.js';
import { CANCEL_MESSAGES, type Job, type JobRun } from '../../src/jobs/jobs.types.js';
import { AppError } from '../../src/http/errors.js';
import { until } from './slow-server.js';

/**
 * The in-process queue on a real SQLite file. The handlers here are the test's own jobs (the
 * queue runs any handler): each waits for the test to release it, so the order of events is
 * decided by the test, never by timing.
 */
let dir: string;
let db: Db;
let queue: LocalJobQueue;
/** job id -> release function of a handler that is running */
const gates = new Map<string, (outcome?: { ok: boolean }) => void>();

function gatedHandler(run: JobRun) {
  return new Promise<{ ok: boolean; result: { id: string }; error?: string }>((resolve) => {
    run.progress(0.5, 'Halfway');
    gates.set(run.job.id, (o = { ok: true }) => resolve({ ok: o.ok, result: { id: run.job.id }, error: o.ok ? undefined : 'it broke' }));
    // a cancelled handler stops and reports failure, as the real ones do when their process dies
    run.signal.addEventListener('abort', () => resolve({ ok: false, result: { id: run.job.id }, error: 'stopped' }));
  });
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-queue-'));
  db = openDatabase(path.join(dir, 'app.sqlite'));
  queue = new LocalJobQueue(db, createLogger('silent'), { concurrency: 2, maxQueued: 3 });
  queue.handle('frames', gatedHandler);
  await queue.start();
});

afterEach(async () => {
  await queue.close();
  void db.close();
  gates.clear();
  fs.rmSync(dir, { recursive: true, force: true });
});

const state = (id: string) => db.firstSync<{ state: string }>('SELECT state FROM jobs WHERE id = ?', [id])!.state;

describe('LocalJobQueue', () => {
  it('runs at most `concurrency` jobs, oldest first, and starts the next when one finishes', async () => {
    const [a, b, c] = [
      await queue.enqueue('frames', {}, { videoId: 'a' }),
      await queue.enqueue('frames', {}, { videoId: 'b' }),
      await queue.enqueue('frames', {}, { videoId: 'c' }),
    ];
    await until(() => (gates.has(a.id) && gates.has(b.id) ? true : undefined));
    expect([state(a.id), state(b.id), state(c.id)]).toEqual(['running', 'running', 'queued']);
    gates.get(a.id)!();
    const doneA = await queue.wait(a.id);
    expect(doneA).toMatchObject({ state: 'succeeded', progress: 1, result: { id: a.id }, error: null, message: 'Done' });
    await until(() => (gates.has(c.id) ? true : undefined));
    expect(state(c.id)).toBe('running');
    gates.get(b.id)!({ ok: false });
    expect(await queue.wait(b.id)).toMatchObject({ state: 'failed', error: 'it broke', progress: 0.5 });
    gates.get(c.id)!();
    await queue.wait(c.id);
  });

  it('cancels a queued job at once and a running one through its signal; a finished job stays as it was', async () => {
    const events: Job[] = [];
    queue.onProgress((j) => events.push(j));
    const [a, b, c] = [await queue.enqueue('frames', {}), await queue.enqueue('frames', {}), await queue.enqueue('frames', {})];
    await until(() => (gates.has(a.id) && gates.has(b.id) ? true : undefined));
    expect(await queue.cancel(c.id)).toMatchObject({ state: 'cancelled', error: CANCEL_MESSAGES.admin });
    await queue.cancel(a.id);
    expect(await queue.wait(a.id)).toMatchObject({ state: 'cancelled', error: CANCEL_MESSAGES.admin, result: { id: a.id } });
    gates.get(b.id)!();
    await queue.wait(b.id);
    expect(await queue.cancel(b.id)).toMatchObject({ state: 'succeeded' });
    // listeners saw each state, and the throttled progress
    expect(events.filter((e) => e.id === a.id).map((e) => e.state)).toEqual(['queued', 'running', 'running', 'running', 'cancelled']);
    expect(events.some((e) => e.id === a.id && e.progress === 0.5 && e.message === 'Halfway')).toBe(true);
  });

  it('turns a thrown error into a failed job, refuses a full queue, and refuses new jobs once closing', async () => {
    queue.handle('download', async () => {
      throw new Error('boom');
    });
    const d = await queue.enqueue('download', { url: 'x' });
    expect(await queue.wait(d.id)).toMatchObject({ state: 'failed', error: 'The job stopped because of an internal error.' });

    // two run, three wait: the sixth is refused
    for (let i = 0; i < 2; i++) await queue.enqueue('frames', {});
    await until(() => (gates.size === 2 ? true : undefined));
    for (let i = 0; i < 3; i++) await queue.enqueue('frames', {});
    const full = await queue.enqueue('frames', {}).catch((e: unknown) => e);
    expect(full).toBeInstanceOf(AppError);
    expect(full).toMatchObject({ status: 503, code: 'queue_full' });

    // close: everything is cancelled with the shutdown's message and awaited
    await queue.close();
    const states = db.allSync<{ state: string; error: string }>(`SELECT state, error FROM jobs WHERE kind = 'frames'`);
    expect(states).toHaveLength(5);
    for (const s of states) expect(s).toEqual({ state: 'cancelled', error: CANCEL_MESSAGES.shutdown });
    const late = await queue.enqueue('frames', {}).catch((e: unknown) => e);
    expect(late).toMatchObject({ status: 503, code: 'shutting_down' });
  });
});
