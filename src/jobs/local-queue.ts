import crypto from 'node:crypto';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import { AppError } from '../http/errors.js';
import { beat, claimJob, countQueued, failStaleJobs, finishJob, getJob, getJobs, insertJob, listJobs, requestCancel } from './jobs.repository.js';
import { JobWatch } from './job-watch.js';
import { createJobRun, finalState, type RunningJob } from './job-run.js';
import {
  CANCEL_MESSAGES,
  FINISHED_STATES,
  type CancelReason,
  type Job,
  type JobHandler,
  type JobKind,
  type JobListFilter,
  type JobOutcome,
  type JobQueue,
  type LocalQueueOptions,
  type Json,
} from './jobs.types.js';

/** What a job whose worker stopped beating (a crash, a SIGKILL, a lost machine) is marked failed with. */
export const ORPHAN_REASON =
  'The worker running this job stopped responding (a crash, a kill or a lost machine); its partial files are removed when it starts again. Start the job again.';

/**
 * JobQueue over the `jobs` table of the `Database` (SQLite or PostgreSQL), with the work done by
 * handlers in this process: at most `concurrency` at once, oldest queued first, each claimed with
 * one atomic UPDATE … RETURNING, so other processes on the same database (a `npm run worker`
 * beside a web instance with JOB_CONCURRENCY=0) can share the queue.
 *
 * A tick (every `pollMs`) does the cross-process part: it writes the heartbeat of the jobs
 * running here, aborts the ones another instance asked to cancel (or that were swept), fails
 * jobs whose worker stopped beating (any instance does this, so no job stays `running` when its
 * process died), tells this instance's listeners and waiters what other processes did, and
 * claims queued work. Crash rule: a job whose worker died is failed with ORPHAN_REASON, not
 * retried: a job that crashed its worker would crash it again in a loop.
 * PgBossJobQueue (pgboss-queue.ts) replaces the dispatch (claim) part on PostgreSQL.
 */
export class LocalJobQueue implements JobQueue {
  protected readonly handlers = new Map<JobKind, JobHandler>();
  protected readonly running = new Map<string, RunningJob>();
  private readonly waiters = new Map<string, ((job: Job) => void)[]>();
  private readonly listeners = new Set<(job: Job) => void>();
  private readonly watch = new JobWatch();
  protected readonly log: Logger;
  protected started = false;
  protected closing = false;
  private timer: NodeJS.Timeout | undefined;
  /** background work (ticks, claims) runs one piece at a time */
  private lane: Promise<void> = Promise.resolve();
  private lastBeat = 0;
  private lastSweep = 0;

  constructor(
    protected readonly db: Database,
    logger: Logger,
    protected readonly opts: LocalQueueOptions,
  ) {
    this.log = logger.child({ module: 'jobs' });
  }

  protected get heartbeatMs(): number {
    return this.opts.heartbeatMs ?? 10_000;
  }

  handle(kind: JobKind, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  async enqueue(kind: JobKind, input: Json, opts: { videoId?: string } = {}): Promise<Job> {
    if (this.closing) throw new AppError(503, 'shutting_down', 'The server is shutting down; try again in a moment.');
    const max = this.opts.maxQueued ?? 100;
    if ((await countQueued(this.db)) >= max) throw new AppError(503, 'queue_full', 'Too many jobs are waiting; try again when some have finished.');
    const job = await insertJob(this.db, { id: crypto.randomUUID(), kind, videoId: opts.videoId ?? null, input, message: 'Waiting for a free worker' });
    await this.dispatchNew(job);
    this.log.info({ jobId: job.id, kind, videoId: job.videoId }, 'job queued');
    this.emit(job);
    // after the caller has the queued job in hand
    setImmediate(() => this.schedule(() => this.pump()));
    return job;
  }

  /** Hands a new job to the dispatcher (nothing to do here: the row is the queue entry). */
  protected async dispatchNew(_job: Job): Promise<void> {}

  async get(id: string): Promise<Job | undefined> {
    return getJob(this.db, id);
  }

  async list(filter: JobListFilter = {}): Promise<Job[]> {
    return listJobs(this.db, filter);
  }

  async cancel(id: string, reason: CancelReason = 'admin'): Promise<Job | undefined> {
    const job = await getJob(this.db, id);
    if (!job || FINISHED_STATES.includes(job.state)) return job;
    const run = this.running.get(id);
    if (run) {
      run.reason ??= reason;
      await requestCancel(this.db, id, reason);
      run.controller.abort(new Error(CANCEL_MESSAGES[reason]));
      const now = (await getJob(this.db, id))!;
      this.emit(now);
      return now;
    }
    const message = CANCEL_MESSAGES[reason];
    if (await finishJob(this.db, id, { state: 'cancelled', result: null, error: message, message }, ['queued'])) {
      await this.settled(id);
    } else if (await requestCancel(this.db, id, reason)) {
      // running in another process: it sees the request at its next tick and stops the handler
      this.watch.watch(id);
      this.emit((await getJob(this.db, id))!);
    }
    return getJob(this.db, id);
  }

  async wait(id: string): Promise<Job> {
    const job = await getJob(this.db, id);
    if (!job) throw new AppError(404, 'job_not_found', `Job ${id} was not found.`);
    if (FINISHED_STATES.includes(job.state)) return job;
    // the tick reads it until it is finished, whichever process runs it
    this.watch.watch(id);
    return new Promise((resolve) => {
      const list = this.waiters.get(id) ?? [];
      list.push(resolve);
      this.waiters.set(id, list);
    });
  }

  onProgress(listener: (job: Job) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async recover(): Promise<void> {
    await this.sweep(this.opts.soleWorker ? 0 : undefined);
  }

  async start(): Promise<void> {
    await this.recover();
    await this.startDispatch();
    this.started = true;
    this.timer = setInterval(() => this.schedule(() => this.tick()), this.opts.pollMs ?? 1000);
    this.timer.unref();
    this.schedule(() => this.pump());
  }

  /** Starts the dispatcher (nothing to do here). */
  protected async startDispatch(): Promise<void> {}
  /** Stops the dispatcher once no job runs here any more (nothing to do here). */
  protected async stopDispatch(): Promise<void> {}

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    if (this.opts.cancelQueuedOnClose ?? true)
      for (const job of await listJobs(this.db, { state: 'queued', limit: 10_000 })) await this.cancel(job.id, 'shutdown');
    const stopping = [...this.running.entries()].map(([id, run]) => {
      void this.cancel(id, 'shutdown').catch((err: unknown) => this.log.warn({ err, jobId: id }, 'could not cancel a job'));
      return run.done;
    });
    await Promise.all(stopping);
    await this.lane;
    // last: the jobs that just stopped tell the dispatcher they are done
    await this.stopDispatch();
  }

  /** Runs background work one piece at a time; a failure is logged (the next tick tries again). */
  protected schedule(fn: () => Promise<void>): void {
    this.lane = this.lane.then(fn).catch((err: unknown) => this.log.error({ err }, 'job queue background work failed'));
  }

  /** Takes queued jobs while there is room (the SQLite/table dispatcher: one atomic claim each). */
  protected async pump(): Promise<void> {
    while (this.started && !this.closing && this.running.size < this.opts.concurrency) {
      const job = await claimJob(this.db, { kinds: [...this.handlers.keys()] });
      if (!job) return;
      this.startJob(job);
    }
  }

  private async tick(): Promise<void> {
    const now = Date.now();
    const ids = [...this.running.keys()];
    if (ids.length) {
      if (now - this.lastBeat >= this.heartbeatMs) {
        this.lastBeat = now;
        await beat(this.db, ids);
      }
      // a cancel asked by another instance, or a job swept from under us
      for (const row of await getJobs(this.db, ids)) {
        const run = this.running.get(row.id);
        if (!run || run.controller.signal.aborted) continue;
        if (row.state !== 'running' || row.cancelRequested) {
          run.reason ??= row.cancelRequested ?? 'admin';
          run.controller.abort(new Error(CANCEL_MESSAGES[run.reason]));
        }
      }
    }
    if (now - this.lastSweep >= this.heartbeatMs) await this.sweep();
    if (this.listeners.size || this.waiters.size) {
      for (const job of await this.watch.poll(this.db, new Set(this.running.keys()))) this.deliver(job);
    }
    // a wait that began just as its job finished may have missed the event: read its row
    // (listeners hear a finished job before its waiters resume, so a waiter never sees an older state than the listeners)
    if (this.waiters.size) {
      for (const job of await getJobs(this.db, [...this.waiters.keys()])) {
        if (FINISHED_STATES.includes(job.state)) this.emit(job);
        this.resolveWaiters(job);
      }
    }
    await this.pump();
  }

  private async sweep(staleMs = this.opts.staleMs ?? 60_000): Promise<void> {
    this.lastSweep = Date.now();
    const stale = await failStaleJobs(this.db, staleMs, ORPHAN_REASON);
    if (!stale.length) return;
    this.log.warn({ jobs: stale.map((j) => ({ id: j.id, kind: j.kind, videoId: j.videoId })) }, 'jobs whose worker stopped responding marked failed');
    for (const j of stale) if (!this.running.has(j.id)) await this.settled(j.id);
  }

  protected startJob(job: Job, after?: (job: Job) => Promise<void>): void {
    const handler = this.handlers.get(job.kind)!;
    const { entry, run } = createJobRun(this.db, job, this.log, (j) => this.emit(j));
    this.running.set(job.id, entry);
    this.log.info({ jobId: job.id, kind: job.kind }, 'job started');
    this.emit({ ...job });

    entry.done = (async () => {
      let outcome: JobOutcome;
      try {
        outcome = await handler(run);
      } catch (err) {
        this.log.error({ err, jobId: job.id, kind: job.kind }, 'job failed with an internal error');
        outcome = { ok: false, result: null, error: 'The job stopped because of an internal error.' };
      }
      try {
        await Promise.all(entry.writes);
        await finishJob(this.db, job.id, { ...finalState(outcome, entry.reason), result: outcome.result }, ['running']);
        const final = await this.settled(job.id);
        this.log.info({ jobId: job.id, kind: job.kind, state: final?.state }, 'job finished');
        if (after && final) await after(final);
      } catch (err) {
        this.log.error({ err, jobId: job.id }, 'could not record the end of a job');
      } finally {
        this.running.delete(job.id);
        this.schedule(() => this.pump());
      }
    })();
  }

  /** Reads a finished job, tells the listeners and resolves its waiters. */
  private async settled(id: string): Promise<Job | undefined> {
    const job = await getJob(this.db, id);
    if (job) this.deliver(job);
    return job;
  }

  private deliver(job: Job): void {
    this.emit(job);
    this.resolveWaiters(job);
  }

  private resolveWaiters(job: Job): void {
    if (!FINISHED_STATES.includes(job.state)) return;
    const waiting = this.waiters.get(job.id) ?? [];
    this.waiters.delete(job.id);
    for (const resolve of waiting) resolve(job);
  }

  private emit(job: Job): void {
    if (!this.watch.note(job)) return;
    for (const listener of this.listeners) {
      try {
        listener(job);
      } catch (err) {
        this.log.warn({ err }, 'job progress listener failed');
      }
    }
  }
}
