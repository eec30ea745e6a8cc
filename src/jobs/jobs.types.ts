/**
 * The job interface the rest of the service sees. It is kept small and engine-neutral on
 * purpose: today an in-process worker over the SQLite `jobs` table implements it
 * (local-queue.ts); a queue on a shared database (pg-boss on PostgreSQL, issue #18) can replace
 * it without touching the routes or the job handlers. Every method is async for that reason.
 */
export const JOB_KINDS = ['download', 'frames'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const FINISHED_STATES: readonly JobState[] = ['succeeded', 'failed', 'cancelled'];

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Job {
  id: string;
  kind: JobKind;
  /** the video the job works on; a download learns it from yt-dlp's answer, so it may be null at first */
  videoId: string | null;
  state: JobState;
  /** 0..1 */
  progress: number;
  message: string;
  input: Json;
  result: Json | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** set while a running job is being cancelled (by any instance): why */
  cancelRequested?: CancelReason | null;
}

/** Why a job was cancelled: the admin asked, or the server is shutting down. */
export type CancelReason = 'admin' | 'shutdown';
/** The `error` of a cancelled job, per reason (every queue engine writes these, so callers can tell them apart). */
export const CANCEL_MESSAGES: Record<CancelReason, string> = {
  admin: 'Cancelled by the admin.',
  shutdown: 'Cancelled: the server was shutting down.',
};

/** What a handler gets while it runs. */
export interface JobRun {
  job: Job;
  /** aborted when the job is cancelled (the handler stops its child processes and cleans up) */
  signal: AbortSignal;
  /** fraction 0..1 and a short text; throttled by the queue, so call it as often as output arrives */
  progress(fraction: number, message?: string): void;
  /** records the video the job turned out to be about */
  setVideo(videoId: string): void;
}

/**
 * A handler's answer: `ok: false` is a failure the handler understood (its result still says
 * why, e.g. a download result with an error_code); a thrown error is an internal failure.
 */
export interface JobOutcome {
  ok: boolean;
  result: Json;
  /** the failure's message for the job record */
  error?: string;
}

export type JobHandler = (run: JobRun) => Promise<JobOutcome>;

export interface JobListFilter {
  kind?: JobKind;
  state?: JobState;
  /** queued or running only */
  active?: boolean;
  videoId?: string;
  limit?: number;
}

export interface JobQueue {
  /** registers the code that runs one kind of job (before start) */
  handle(kind: JobKind, handler: JobHandler): void;
  enqueue(kind: JobKind, input: Json, opts?: { videoId?: string }): Promise<Job>;
  get(id: string): Promise<Job | undefined>;
  /** newest first */
  list(filter?: JobListFilter): Promise<Job[]>;
  /** queued: cancelled at once; running: its signal is aborted and it is marked cancelled when it stops */
  cancel(id: string, reason?: CancelReason): Promise<Job | undefined>;
  /** resolves with the job once it is finished (succeeded, failed or cancelled) */
  wait(id: string): Promise<Job>;
  /** every change of state or progress; returns the unsubscribe function */
  onProgress(listener: (job: Job) => void): () => void;
  /**
   * Marks the jobs of dead workers failed: in the embedded setup every job left running (this
   * process was the only one working jobs), else those whose heartbeat is stale. start() calls it;
   * a process's start-up cleanup calls it first, to know which running jobs are still alive.
   */
  recover(): Promise<void>;
  /** recovery after a crash, then the worker starts taking jobs */
  start(): Promise<void>;
  /** cancels every job (reason 'shutdown') and resolves when their handlers have stopped */
  close(): Promise<void>;
}

/** How the table-backed queue (and the pg-boss one built on it) runs in this process. */
export interface LocalQueueOptions {
  /** handlers running at once in this process; 0 = this instance only enqueues (a worker elsewhere runs them) */
  concurrency: number;
  /** queued jobs beyond this are refused (503) rather than piling up; default 100 */
  maxQueued?: number;
  /** how often a running job's heartbeat is written (default 10 s) */
  heartbeatMs?: number;
  /** a running job whose heartbeat is older than this is failed with ORPHAN_REASON (default 60 s) */
  staleMs?: number;
  /** the watch loop's tick: cancel requests, other processes' progress, new work (default 1 s) */
  pollMs?: number;
  /**
   * on close, cancel the queued jobs too (reason 'shutdown'). True for the embedded setup (one
   * process does everything); false when other workers share the queue, which keep running them.
   */
  cancelQueuedOnClose?: boolean;
  /**
   * every job found running at start is an orphan (its process died): true when this process is
   * the only one that works jobs (embedded); else only stale heartbeats count.
   */
  soleWorker?: boolean;
}
