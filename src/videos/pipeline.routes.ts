import type { AppContext } from '../context.js';
import { downloadStatus, downloadVideo } from './download.service.js';
import { extractFrames } from './frames.service.js';
import { downloadBody, downloadResult, frameResult, videoParams } from './videos.schema.js';

const tags = ['Admin'];

/** POST /api/download and POST /api/frames/{video_id}: the admin's pipeline actions. */
export function registerPipelineRoutes(ctx: AppContext, signal: AbortSignal): void {
  const { api, config, db, logger } = ctx;

  api.route(
    {
      method: 'post',
      path: '/api/download',
      summary: 'Download a video from an allowed link (form field `url`), with subtitles, info and thumbnail',
      tags,
      access: ['admin'],
      bodyType: 'form',
      body: downloadBody,
      response: downloadResult,
      errors: {
        400: 'invalid_url: the link is not a single video on an allowed host (download result body)',
        409: 'download_in_progress: this video is already being downloaded (download result body)',
        502: 'the platform or yt-dlp failed; error_code and recovery_hint say why (download result body)',
        503: 'binary_missing: yt-dlp, ffmpeg or ffprobe is not installed (download result body)',
        504: 'timeout: DOWNLOAD_TIMEOUT_MS was reached (download result body)',
      },
    },
    // The download goes on if the browser disconnects (it then shows up in the list); only
    // shutting the server down cancels it.
    async ({ body }, _req, res) => {
      const result = await downloadVideo({ config, db, logger, signal }, body.url);
      res.status(downloadStatus(result)).json(result);
      return undefined;
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/frames/{video_id}',
      summary: 'Extract frames at 1 per second (frame k = the picture at t = k s) with frames.csv and frames.json',
      tags,
      access: ['admin'],
      params: videoParams,
      response: frameResult,
      errors: {
        404: 'unknown video, or its file is missing',
        409: 'the video is still downloading, or frames are already being extracted',
        422: 'ffmpeg could not read the video',
        503: 'ffmpeg is not installed',
      },
    },
    async ({ params }) => {
      const r = await extractFrames({ config, db, logger, signal }, params.video_id);
      return {
        success: true,
        message: `Extracted ${r.count} frames at 1 frame per second.`,
        files: r.files,
        video_id: r.videoId,
        output_dir: r.outputDir,
        count: r.count,
      };
    },
  );
}
