import { z } from 'zod';
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import type { Job, Json } from '../jobs/jobs.types.js';
import { downloadVideo, type DownloadResult } from './download.service.js';
import { extractFrames, type FrameExtraction } from './frames.service.js';
import { recoverAfterRestart } from './index.js';

/** What job handlers get: the app's dependencies and its queue, without the HTTP parts (a worker has none). */
export type JobHandlerContext = Pick<AppContext, 'config' | 'db' | 'logger' | 'jobs' | 'onStart'>;

/** What a download job is enqueued with. */
export const downloadJobInput = z.object({ url: z.string().min(1) });

/** A frames job that failed keeps the error the route answers. */
const frameFailure = z.object({ status: z.number().int(), error: z.string(), message: z.string() });

/**
 * The job handlers behind POST /api/download and POST /api/frames/{video_id}: the services run
 * with the job's abort signal (cancel kills their process group and removes partial files) and
 * report progress through the job. Registered only by a process that works jobs (the embedded
 * web instance, or `npm run worker`), which also sweeps what a killed predecessor left behind.
 */
export function registerPipelineJobs(ctx: JobHandlerContext): void {
  const { config, db, logger, jobs } = ctx;
  ctx.onStart(async () => {
    await jobs.recover();
    // a job still running belongs to a live worker elsewhere: its locks, rows and temp dirs are not leftovers
    if ((await jobs.list({ state: 'running', limit: 1 })).length) {
      logger.warn('other workers are running jobs: the start-up cleanup of interrupted downloads is skipped');
      return;
    }
    await recoverAfterRestart(ctx);
  });

  jobs.handle('download', async (run) => {
    const { url } = downloadJobInput.parse(run.job.input);
    const result = await downloadVideo({ config, db, logger, signal: run.signal, onProgress: run.progress, onVideo: run.setVideo }, url);
    return { ok: result.success, result: result as unknown as Json, error: result.success ? undefined : result.message };
  });

  jobs.handle('frames', async (run) => {
    const videoId = run.job.videoId!;
    try {
      run.progress(0, 'Extracting frames');
      const r = await extractFrames({ config, db, logger, signal: run.signal, onProgress: (f) => run.progress(f * 0.95, 'Extracting frames') }, videoId);
      return { ok: true, result: frameResultBody(r) };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return { ok: false, result: { status: err.status, error: err.code, message: err.message }, error: err.message };
    }
  });
}

/** The contract's frame extraction result. */
export function frameResultBody(r: FrameExtraction): Json {
  return {
    success: true,
    message: `Extracted ${r.count} frames at 1 frame per second.`,
    files: r.files,
    video_id: r.videoId,
    output_dir: r.outputDir,
    count: r.count,
  };
}

/** A finished download job as the contract's download result (a cancelled job says so with error_code 'cancelled'). */
export function downloadResultOf(job: Job): DownloadResult {
  if (job.state === 'cancelled') {
    const previous = (job.result ?? {}) as Partial<DownloadResult>;
    return {
      success: false,
      message: job.error ?? 'The download was cancelled.',
      error_code: 'cancelled',
      recovery_hint: 'Start the download again.',
      ...(job.videoId ? { video_id: job.videoId } : {}),
      ...(previous.auth_source ? { auth_source: previous.auth_source } : {}),
      ...(previous.used_player_client ? { used_player_client: previous.used_player_client } : {}),
    };
  }
  if (job.result && typeof job.result === 'object' && 'success' in job.result) return job.result as unknown as DownloadResult;
  return { success: false, message: job.error ?? 'The download failed.', error_code: 'download_failed', recovery_hint: 'Try again; read the server log.' };
}

/** A failed frames job as the AppError its route answers. */
export function frameErrorOf(job: Job): AppError {
  const f = frameFailure.safeParse(job.result);
  if (f.success) return new AppError(f.data.status, f.data.error, f.data.message);
  return new AppError(500, 'internal_error', job.error ?? 'Frame extraction failed.');
}
