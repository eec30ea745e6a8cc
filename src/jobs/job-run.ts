import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import { saveProgress, setJobVideo } from './jobs.repository.js';
import { ProgressThrottle } from './progress-throttle.js';
import { CANCEL_MESSAGES, type CancelReason, type Job, type JobOutcome, type JobRun, type JobState } from './jobs.types.js';

/** One job running in this process, as the queue keeps it. */
export interface RunningJob {
  controller: AbortController;
  reason?: CancelReason;
  done: Promise<void>;
  /** progress and video writes not yet confirmed: awaited before the job is finished */
  writes: Set<Promise<void>>;
}

/**
 * What a handler is given to run with: its abort signal, and `progress`/`setVideo`, which update
 * the row (throttled, so a chatty ffmpeg does not write hundreds of rows a second) and tell the
 * queue's listeners through `emit`. A write that fails is logged, never thrown into the handler.
 */
export function createJobRun(db: Database, job: Job, log: Logger, emit: (job: Job) => void): { entry: RunningJob; run: JobRun } {
  const controller = new AbortController();
  const throttle = new ProgressThrottle();
  const current: Job = { ...job };
  const entry: RunningJob = { controller, done: Promise.resolve(), writes: new Set() };
  const write = (p: Promise<void>) => {
    const tracked = p.catch((err: unknown) => log.warn({ err, jobId: job.id }, 'could not save job progress'));
    entry.writes.add(tracked);
    void tracked.then(() => entry.writes.delete(tracked));
  };
  const run: JobRun = {
    job: { ...job },
    signal: controller.signal,
    progress: (fraction: number, message?: string) => {
      if (controller.signal.aborted) return;
      const text = message ?? current.message;
      const f = throttle.accept(fraction, text);
      if (f === undefined) return;
      current.progress = f;
      current.message = text;
      write(saveProgress(db, job.id, f, text));
      emit({ ...current });
    },
    setVideo: (videoId: string) => {
      current.videoId = videoId;
      write(setJobVideo(db, job.id, videoId));
    },
  };
  return { entry, run };
}

/**
 * The final row of a job from its handler's outcome: a failure after a cancel request is
 * `cancelled` with the cancel's message (the handler's own error is then only the abort).
 */
export function finalState(
  outcome: JobOutcome,
  reason: CancelReason | undefined,
): { state: Exclude<JobState, 'queued' | 'running'>; error: string | null; message: string } {
  if (outcome.ok) return { state: 'succeeded', error: null, message: 'Done' };
  if (reason !== undefined) return { state: 'cancelled', error: CANCEL_MESSAGES[reason], message: CANCEL_MESSAGES[reason] };
  const error = outcome.error ?? 'The job failed.';
  return { state: 'failed', error, message: error };
}
