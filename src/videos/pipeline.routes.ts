import type { AppContext } from '../context.js';
import { checkDownloadUrl } from '../pipeline/download-url.js';
import { classified } from '../pipeline/ytdlp-errors.js';
import { AppError, conflict } from '../http/errors.js';
import { cancelledStatus, prefersAsync, sendAccepted } from '../jobs/respond-async.js';
import { jobAccepted } from '../jobs/jobs.schema.js';
import { downloadStatus, invalidUrlResult, type DownloadResult } from './download.service.js';
import { frameSource } from './frames.service.js';
import { downloadJobInput, downloadResultOf, frameErrorOf } from './pipeline.jobs.js';
import { downloadBody, downloadResult, frameResult, videoParams } from './videos.schema.js';

const tags = ['Admin'];
const ACCEPTED = { description: 'With `Prefer: respond-async`: the job was queued (`Location: /api/admin/jobs/{job_id}`, `Preference-Applied: respond-async`)', schema: jobAccepted };
const ASYNC_NOTE = ' Runs as a background job: the request waits for it, or with the header `Prefer: respond-async` answers 202 `{success, job_id, message}` at once (follow it at GET /api/admin/jobs/{job_id} or on /ws/jobs).';

/** POST /api/download and POST /api/frames/{video_id}: the admin's pipeline actions, each run as a job. */
export function registerPipelineRoutes(ctx: AppContext): void {
  const { api, config, jobs } = ctx;

  api.route(
    {
      method: 'post',
      path: '/api/download',
      summary: 'Download a video from an allowed link (form field `url`), with subtitles, info and thumbnail.' + ASYNC_NOTE,
      tags,
      access: ['admin'],
      bodyType: 'form',
      body: downloadBody,
      response: downloadResult,
      accepted: ACCEPTED,
      errors: {
        400: 'invalid_url: the link is not a single video on an allowed host (download result body)',
        409: 'download_in_progress: this video is already being downloaded; cancelled: its job was cancelled (download result body)',
        502: 'the platform or yt-dlp failed; error_code and recovery_hint say why (download result body)',
        503: 'binary_missing: yt-dlp, ffmpeg or ffprobe is not installed; cancelled: the server shut down (download result body); queue_full, shutting_down (error body)',
        504: 'timeout: DOWNLOAD_TIMEOUT_MS was reached (download result body)',
      },
    },
    // The job goes on if the browser disconnects (it then shows up in the job list); only a
    // cancel or shutting the server down stops it.
    async ({ body }, req, res) => {
      const checked = checkDownloadUrl(body.url, config.DOWNLOAD_EXTRA_HOSTS);
      if (!checked.ok) return void res.status(400).json(invalidUrlResult(checked.reason));
      // the same link (or the same platform video) already queued or running
      const busy = (await jobs.list({ kind: 'download', active: true, limit: 1000 })).find((j) => {
        if (checked.videoId && j.videoId === checked.videoId) return true;
        const input = downloadJobInput.safeParse(j.input);
        const other = input.success ? checkDownloadUrl(input.data.url, config.DOWNLOAD_EXTRA_HOSTS) : undefined;
        return other?.ok === true && other.url === checked.url;
      });
      if (busy) return void res.status(409).json(inProgress(busy.id));
      const job = await jobs.enqueue('download', { url: body.url }, { videoId: checked.videoId });
      if (prefersAsync(req)) return void sendAccepted(res, job, 'The download was queued.');
      const done = await jobs.wait(job.id);
      const result = downloadResultOf(done);
      res.status(done.state === 'cancelled' ? cancelledStatus(done) : downloadStatus(result)).json(result);
      return undefined;
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/frames/{video_id}',
      summary: 'Extract frames at 1 per second (frame k = the picture at t = k s) with frames.csv and frames.json.' + ASYNC_NOTE,
      tags,
      access: ['admin'],
      params: videoParams,
      response: frameResult,
      accepted: ACCEPTED,
      errors: {
        404: 'unknown video, or its file is missing',
        409: 'the video is still downloading, or frames are already being extracted; job_cancelled: the job was cancelled',
        422: 'ffmpeg could not read the video',
        503: 'ffmpeg is not installed; job_cancelled: the server shut down; queue_full, shutting_down',
      },
    },
    async ({ params }, req, res) => {
      await frameSource(ctx, params.video_id);
      const busy = await jobs.list({ videoId: params.video_id, active: true, limit: 10 });
      if (busy.length) {
        throw conflict(
          busy.some((j) => j.kind === 'frames') ? 'Frames of this video are already being extracted.' : 'This video is being downloaded; extract frames when it has finished.',
          'video_busy',
        );
      }
      const job = await jobs.enqueue('frames', {}, { videoId: params.video_id });
      if (prefersAsync(req)) return void sendAccepted(res, job, 'Frame extraction was queued.');
      const done = await jobs.wait(job.id);
      if (done.state === 'succeeded') return done.result;
      if (done.state === 'cancelled') throw new AppError(cancelledStatus(done), 'job_cancelled', done.error ?? 'The frame extraction was cancelled.');
      throw frameErrorOf(done);
    },
  );
}

function inProgress(jobId: string): DownloadResult {
  const e = classified('download_in_progress');
  return { success: false, message: `${e.message} (job ${jobId}); wait for it to finish or cancel it.`, error_code: e.code, recovery_hint: e.hint };
}
