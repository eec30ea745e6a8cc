import path from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../context.js';
import { VIDEO_ID_RE } from '../http/ids.js';
import { badRequest, notFound, unauthorized } from '../http/errors.js';
import { currentAuth } from '../http/session.js';
import { FRAME_FILE_RE } from '../pipeline/frames.js';
import { FRAMES_CSV, FRAMES_JSON } from '../pipeline/paths.js';
import { mediaStore, type MediaStore } from '../storage/index.js';
import { frameKey, videoKey } from '../storage/keys.js';
import { streamFromStore } from '../storage/serve.js';
import { assertVideoAccess } from './access.js';
import { getVideo, type Video } from './videos.repository.js';

/**
 * Media files, with HTTP Range (206) so players can seek: the video, its thumbnail, its
 * subtitles (WebVTT, for a <track>) and its frames with their manifests. Only for sessions that
 * may see the video (admin; the experts it is assigned to or claimed by; their families' child
 * sessions; the bundled sample likewise). The id and file name are checked against strict
 * patterns before any path is built; send() additionally refuses dot-files and paths outside root.
 * With S3_BUCKET the bytes come from the bucket, streamed through the app with the same Range
 * behaviour (docs/scaling.md "Media storage" says why not a redirect to a presigned URL).
 */
export function registerMediaRoutes(ctx: AppContext): void {
  const { app, config, db } = ctx;
  const store = mediaStore(config);

  const authorize = async (req: Request): Promise<Video> => {
    const id = String(req.params.video_id ?? '');
    if (!VIDEO_ID_RE.test(id)) throw badRequest('This is not a valid video id.', undefined, 'invalid_video_id');
    const auth = currentAuth(req);
    if (auth.role === 'anonymous') throw unauthorized();
    await assertVideoAccess(db, auth, id);
    const video = await getVideo(db, id);
    if (!video || video.state !== 'downloaded') throw notFound(`Video ${id} was not found.`, 'video_not_found');
    return video;
  };

  const file =
    (pick: (v: Video) => string | null, what: string): RequestHandler =>
    async (req, res, next) => {
      const video = await authorize(req);
      const name = pick(video);
      if (!name) throw notFound(`This video has no ${what}.`, `${what}_not_found`);
      await send(req, res, next, store, videoKey(video.id, name), what);
    };

  app.get('/media/videos/:video_id/video', file((v) => v.videoFile, 'video'));
  app.get('/media/videos/:video_id/thumbnail', file((v) => v.thumbnailFile, 'thumbnail'));
  app.get('/media/videos/:video_id/subtitles', file((v) => v.subtitleFile, 'subtitles'));
  app.get('/media/videos/:video_id/frames/:file', async (req, res, next) => {
    const video = await authorize(req);
    const name = String(req.params.file ?? '');
    if (!FRAME_FILE_RE.test(name) && name !== FRAMES_JSON && name !== FRAMES_CSV) throw badRequest('This is not a frame file name.', undefined, 'invalid_frame_file');
    // The set the row names: one whole extraction, even while a new one is being written. If an
    // extraction switched the row (and deleted this set) between our read of the row and of the
    // file, the row is read once more and the file served from the set it names now.
    const current = async (): Promise<string | null> => {
      const now = await getVideo(db, video.id);
      return now && now.framesSet !== video.framesSet ? frameKey(video.id, name, now.framesSet) : null;
    };
    await send(req, res, next, store, frameKey(video.id, name, video.framesSet), 'frame', FRAMES_CACHE_CONTROL, current);
  });
}

// media of a video only change when it is downloaded or extracted again
const CACHE_CONTROL = 'private, max-age=300';
// frames and manifests are revalidated on every use (ETag: a cheap 304), so a browser never pairs
// a cached manifest of one extraction with frames of another after a re-extraction
const FRAMES_CACHE_CONTROL = 'private, no-cache';

async function send(
  req: Request,
  res: Response,
  next: NextFunction,
  store: MediaStore,
  key: string,
  what: string,
  cacheControl = CACHE_CONTROL,
  /** on a missing file: another key to try once (or null) */
  retry?: () => Promise<string | null>,
): Promise<void> {
  const missing = () => notFound(`The ${what} file is missing.`, `${what}_not_found`);
  const file = store.localPath(key);
  if (!file) {
    if (await streamFromStore(req, res, store, key, cacheControl)) return;
    const other = await retry?.();
    if (!other) throw missing();
    await send(req, res, next, store, other, what, cacheControl);
    return;
  }
  res.sendFile(
    path.basename(file),
    {
      root: path.dirname(file),
      dotfiles: 'deny',
      headers: { 'Cache-Control': cacheControl },
    },
    (err?: Error & { status?: number; code?: string }) => {
      if (!err || res.headersSent) return;
      if (err.status !== 404 && err.code !== 'ENOENT') return next(err);
      if (!retry) return next(missing());
      retry()
        .then((other) => (other ? send(req, res, next, store, other, what, cacheControl) : next(missing())))
        .catch(next);
    },
  );
}
