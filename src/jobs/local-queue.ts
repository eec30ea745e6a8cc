import crypto from 'node:crypto';
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import { AppError } from '../http/errors.js';
import { claimNextJob, failOrphanedJobs, finishJob, getJob, insertJob, listJobs, saveProgress, setJobVideo } from './jobs.repository.js';
import { ProgressThrottle } from './progress-throttle.js';
import { CANCEL_MESSAGES, FINISHED_STATES, type CancelReason, type Job, type JobHandler, type JobKind, type JobListFilter, type JobOutcome, type JobQueue, type Json } from './jobs.types.js';

/** What a job that was running when the process died is marked with at the next start. */
export const ORPHAN_REASON = 'The server stopped while this job was running (a crash or a kill); its partial files were removed. Start it again.';

interface RunningJob {
  controller: AbortController;
  reason?: CancelReason;
  done: Promise<void>;
}

export interface LocalQueueOptions {
  concurrency: number;
  /** queued jobs beyond this are refused (503) rather than piling up; default 100 */
  maxQueued?: number;
}

/**
 * The in-process implementation of JobQueue: rows in the SQLite `jobs` table, a worker loop in
 * this process that runs at most `concurrency` handlers at once, oldest queued first.
 * Crash rule (decided for issue #16): a job found `running` at start belonged to a process that
 * died; it is marked failed with ORPHAN_REASON, not retried, because a job that crashed the
 * server would crash it again in a loop. Queued jobs never started, so they simply run.
 */
export class LocalJobQueue implements JobQueue {
  private readonly handlers = new Map<JobKind, JobHandler>();
  private readonly running = new Map<string, RunningJob>();
  private readonly waiters = new Map<string, ((job: Job) => void)[]>();
  private readonly listeners = new Set<(job: Job) => void>();
  private readonly log: Logger;
  private started = false;
  private closing = false;

  constructor(
    private readonly db: Db,
    logger: Logger,
    private readonly opts: LocalQueueOptions,
  ) {
    this.log = logger.child({ module: 'jobs' });
  }

  handle(kind: JobKind, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  async enqueue(kind: JobKind, input: Json, opts: { videoId?: string } = {}): Promise<Job> {
    if (this.closing) throw new AppError(503, 'shutting_down', 'The server is shutting down; try again in a moment.');
    const queued = listJobs(this.db, { state: 'queued', limit: (this.opts.maxQueued ?? 100) + 1 }).length;
    if (queued >= (this.opts.maxQueued ?? 100)) throw new AppError(503, 'queue_full', 'Too many jobs are waiting; try again when some have finished.');
    const job = insertJob(this.db, { id: crypto.randomUUID(), kind, videoId: opts.videoId ?? null, input, message: 'Waiting for a free worker' });
    this.log.info({ jobId: job.id, kind, videoId: job.videoId }, 'job queued');
    this.emit(job);
    // after the caller has the queued job in hand
    setImmediate(() => this.pump());
    return job;
  }

  async get(id: string): Promise<Job | undefined> {
    return getJob(this.db, id);
  }

  async list(filter: JobListFilter = {}): Promise<Job[]> {
    return listJobs(this.db, filter);
  }

  async cancel(id: string, reason: CancelReason = 'admin'): Promise<Job | undefined> {
    const job = getJob(this.db, id);
    if (!job || FINISHED_STATES.includes(job.state)) return job;
    const run = this.running.get(id);
    if (run) {
      run.reason ??= reason;
      saveProgress(this.db, id, job.progress, 'Cancelling');
      run.controller.abort(new Error(CANCEL_MESSAGES[reason]));
      const now = getJob(this.db, id)!;
      this.emit(now);
      return now;
    }
    this.settle(id, { state: 'cancelled', result: null, error: CANCEL_MESSAGES[reason], message: CANCEL_MESSAGES[reason] });
    return getJob(this.db, id);
  }

  wait(id: string): Promise<Job> {
    const job = getJob(this.db, id);
    if (!job) return Promise.reject(new AppError(404, 'job_not_found', `Job ${id} was not found.`));
    if (FINISHED_STATES.includes(job.state)) return Promise.resolve(job);
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

  async start(): Promise<void> {
    const orphans = failOrphanedJobs(this.db, ORPHAN_REASON);
    if (orphans.length) this.log.warn({ jobs: orphans.map((j) => ({ id: j.id, kind: j.kind, videoId: j.videoId })) }, 'jobs interrupted by a restart marked failed');
    this.started = true;
    this.pump();
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const job of listJobs(this.db, { state: 'queued', limit: 10_000 })) await this.cancel(job.id, 'shutdown');
    const stopping = [...this.running.entries()].map(([id, run]) => {
      void this.cancel(id, 'shutdown');
      return run.done;
    });
    await Promise.all(stopping);
  }

  /** Starts queued jobs while there is room. */
  private pump(): void {
    if (!this.started || this.closing) return;
    while (this.running.size < this.opts.concurrency) {
      const job = claimNextJob(this.db, [...this.handlers.keys()]);
      if (!job) return;
      this.startJob(job, this.handlers.get(job.kind)!);
    }
  }

  private startJob(job: Job, handler: JobHandler): void {
    const controller = new AbortController();
    const throttle = new ProgressThrottle();
    const current: Job = { ...job };
    const entry: RunningJob = { controller, done: Promise.resolve() };
    this.running.set(job.id, entry);
    this.log.info({ jobId: job.id, kind: job.kind }, 'job started');
    this.emit({ ...current });

    const run = {
      job: { ...job },
      signal: controller.signal,
      progress: (fraction: number, message?: string) => {
        if (controller.signal.aborted) return;
        const text = message ?? current.message;
        const f = throttle.accept(fraction, text);
        if (f === undefined) return;
        current.progress = f;
        current.message = text;
        saveProgress(this.db, job.id, f, text);
        this.emit({ ...current });
      },
      setVideo: (videoId: string) => {
        current.videoId = videoId;
        setJobVideo(this.db, job.id, videoId);
      },
    };

    entry.done = (async () => {
      let outcome: JobOutcome;
      try {
        outcome = await handler(run);
      } catch (err) {
        this.log.error({ err, jobId: job.id, kind: job.kind }, 'job failed with an internal error');
        outcome = { ok: false, result: null, error: 'The job stopped because of an internal error.' };
      }
      const cancelled = entry.reason !== undefined && !outcome.ok;
      const state = outcome.ok ? 'succeeded' : cancelled ? 'cancelled' : 'failed';
      const error = outcome.ok ? null : cancelled ? CANCEL_MESSAGES[entry.reason!] : (outcome.error ?? 'The job failed.');
      this.running.delete(job.id);
      this.settle(job.id, { state, result: outcome.result, error, message: outcome.ok ? 'Done' : error! });
      this.log.info({ jobId: job.id, kind: job.kind, state }, 'job finished');
      this.pump();
    })();
  }

  private settle(id: string, f: Parameters<typeof finishJob>[2]): void {
    finishJob(this.db, id, f);
    const job = getJob(this.db, id)!;
    this.emit(job);
    const waiting = this.waiters.get(id) ?? [];
    this.waiters.delete(id);
    for (const resolve of waiting) resolve(job);
  }

  private emit(job: Job): void {
    for (const listener of this.listeners) {
      try {
        listener(job);
      } catch (err) {
        this.log.warn({ err }, 'job progress listener failed');
      }
    }
  }
}
