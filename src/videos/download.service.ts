import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import { VIDEO_ID_RE } from '../http/ids.js';
import { checkDownloadUrl, URL_HINT } from '../pipeline/download-url.js';
import { removeQuietly, tempSibling, writeAtomic } from '../pipeline/files.js';
import { AppError } from '../http/errors.js';
import { BinaryMissingError, ProcessError } from '../pipeline/process-runner.js';
import { ensurePlayableMp4, makeThumbnail, type MediaTools } from '../pipeline/media.js';
import { videosRoot } from '../pipeline/paths.js';
import { mediaStore } from '../storage/index.js';
import { videoKey } from '../storage/keys.js';
import { DownloadFailure, ytdlpDownload, type VideoInfo, type YtdlpDownload } from '../pipeline/ytdlp.js';
import { classified, type DownloadErrorCode } from '../pipeline/ytdlp-errors.js';
import { mediaUrls } from './media-urls.js';
import { deleteIfDownloading, getVideo, insertDownloading, releaseLock, saveDownloaded, tryLock, type HeldLock } from './videos.repository.js';

/** The contract's download result. */
export interface DownloadResult {
  success: boolean;
  message: string;
  video_id?: string;
  title?: string;
  thumbnail?: string;
  local_path?: string;
  subtitle_warning?: string;
  error_code?: string;
  recovery_hint?: string;
  files?: string[];
  duration?: number;
  auth_source?: 'browser' | 'cookiefile' | 'none';
  used_player_client?: string[];
}

export interface DownloadDeps {
  config: Config;
  db: Database;
  logger: Logger;
  signal?: AbortSignal;
  /** 0..1 with a short text, as yt-dlp reports it */
  onProgress?: (fraction: number, message: string) => void;
  /** the local video id, as soon as yt-dlp's probe tells it */
  onVideo?: (videoId: string) => void;
}

/** HTTP status for each failure (the body is the download result either way). */
const STATUS: Partial<Record<DownloadErrorCode, number>> = { invalid_url: 400, download_in_progress: 409, cancelled: 409, binary_missing: 503, timeout: 504 };
export const downloadStatus = (r: DownloadResult): number => (r.success ? 200 : (STATUS[r.error_code as DownloadErrorCode] ?? 502));

/**
 * Link → checked URL → locks → yt-dlp (probe, download, subtitles) in a temp dir → MP4 check and
 * repair → thumbnail → files put into the media store under videos/<id>/ (moved by rename on
 * disk, uploaded to the bucket with S3_BUCKET) → database row. Every failure path (cancel
 * included) removes the temp dir, and a first download that fails leaves no row behind.
 */
export async function downloadVideo(deps: DownloadDeps, rawUrl: string): Promise<DownloadResult> {
  const { config, db } = deps;
  const log = deps.logger.child({ module: 'download' });
  const checked = checkDownloadUrl(rawUrl, config.DOWNLOAD_EXTRA_HOSTS);
  if (!checked.ok) return invalidUrlResult(checked.reason);

  const locks: HeldLock[] = [];
  const take = async (key: string) => {
    const r = await tryLock(db, key, 'download');
    if (!r.ok) {
      const what = r.heldBy === 'frames' ? 'Frames of this video are being extracted' : 'This video is already being downloaded';
      throw new DownloadFailure(classified('download_in_progress', `${what}; try again when it has finished.`));
    }
    locks.push(r.lock);
  };
  const root = videosRoot(config.dataDir);
  fs.mkdirSync(root, { recursive: true });
  const workDir = tempSibling(path.join(root, '.incoming'), 'dl');
  let videoId: string | undefined;
  let insertedRow = false;

  try {
    await take(checked.videoId ? `video:${checked.videoId}` : `url:${crypto.createHash('sha256').update(checked.url).digest('hex').slice(0, 32)}`);
    fs.mkdirSync(workDir, { recursive: true });
    const onInfo = async (info: VideoInfo) => {
      const id = localVideoId(info, checked.platform);
      if (videoId === id) return; // a retry with another player client
      videoId = id;
      deps.onVideo?.(id);
      if (!locks.some((l) => l.key === `video:${id}`)) await take(`video:${id}`);
      insertedRow = await insertDownloading(db, { id, title: info.title, sourceUrl: checked.url });
    };
    const tools: MediaTools = { ffmpeg: config.FFMPEG_PATH, ffprobe: config.FFPROBE_PATH, logger: log, signal: deps.signal };
    const dl = await ytdlpDownload(
      {
        ytdlp: config.YTDLP_PATH,
        ffmpegLocation: path.isAbsolute(config.FFMPEG_PATH) ? config.FFMPEG_PATH : undefined,
        authMode: config.DOWNLOAD_AUTH_MODE,
        cookiesBrowser: config.DOWNLOAD_COOKIES_BROWSER,
        cookieFile: config.DOWNLOAD_COOKIE_FILE,
        userAgent: config.DOWNLOAD_USER_AGENT,
        timeoutMs: config.DOWNLOAD_TIMEOUT_MS,
        logger: log,
        signal: deps.signal,
        onProgress: deps.onProgress,
      },
      checked.url,
      checked.platform,
      workDir,
      onInfo,
    );
    const id = videoId!;
    deps.onProgress?.(0.95, 'Checking the video');
    const result = await finishDownload(deps, tools, id, checked.url, dl);
    log.info({ videoId: id, auth: dl.authSource, clients: dl.playerClients }, 'video downloaded');
    return result;
  } catch (err) {
    if (videoId && insertedRow) await deleteIfDownloading(db, videoId);
    if (!(err instanceof DownloadFailure)) {
      const f = mediaFailure(err);
      if (!f) throw err;
      err = f;
    }
    const f = err as DownloadFailure;
    log.warn({ url: checked.url, code: f.error.code, tool: f.toolMessage }, 'download failed');
    return {
      success: false,
      message: f.toolMessage ? `${f.error.message} (yt-dlp: ${f.toolMessage})` : f.error.message,
      error_code: f.error.code,
      recovery_hint: f.error.hint,
      ...(videoId ? { video_id: videoId } : {}),
      ...(f.authSource ? { auth_source: f.authSource } : {}),
      ...(f.playerClients ? { used_player_client: f.playerClients } : {}),
    };
  } finally {
    removeQuietly(workDir);
    for (const l of locks) await releaseLock(db, l);
  }
}

/** The body for a link that fails the allow-list (also answered before a job is queued). */
export function invalidUrlResult(reason: string): DownloadResult {
  return { success: false, message: `This link cannot be downloaded: ${reason}`, error_code: 'invalid_url', recovery_hint: URL_HINT };
}

async function finishDownload(deps: DownloadDeps, tools: MediaTools, id: string, sourceUrl: string, dl: YtdlpDownload): Promise<DownloadResult> {
  const { config, db } = deps;
  const staged = path.join(path.dirname(dl.videoFile), 'staged');
  fs.mkdirSync(staged);
  const stagedVideo = path.join(staged, 'video.mp4');
  fs.renameSync(dl.videoFile, stagedVideo);
  const check = await ensurePlayableMp4(tools, stagedVideo);
  if (!check.ok) throw new DownloadFailure(classified('invalid_container', `The downloaded file is not a playable video: ${check.reason}.`), dl.authSource, dl.playerClients);
  const duration = Math.round(((dl.info.duration ?? 0) > 0 ? dl.info.duration! : check.info.duration) * 1000) / 1000;

  await writeThumbnail(deps, tools, id, dl.thumbnailFile, stagedVideo, path.join(staged, 'thumbnail.jpg'), duration);
  const subtitleName = dl.subtitleFile ? path.basename(dl.subtitleFile) : null;
  if (dl.subtitleFile) fs.renameSync(dl.subtitleFile, path.join(staged, subtitleName!));
  writeAtomic(path.join(staged, 'info.json'), JSON.stringify(publicInfo(dl.info), null, 1));

  // into the store: the new files replace the old ones one by one (each a rename on disk, a
  // whole-object write in a bucket)
  const store = mediaStore(config);
  const previous = await getVideo(db, id);
  const names = fs.readdirSync(staged);
  try {
    for (const name of names) await store.putFile(videoKey(id, name), path.join(staged, name), { move: true });
    if (previous?.subtitleFile && previous.subtitleFile !== subtitleName) await store.delete(videoKey(id, previous.subtitleFile));
  } catch (err) {
    // the bucket is unreachable (503 storage_unavailable): a failed download like any other, its temp folder removed
    if (!(err instanceof AppError)) throw err;
    throw new DownloadFailure(classified('download_failed', `The video was downloaded but could not be stored: ${err.message}`), dl.authSource, dl.playerClients);
  }
  const thumbnailName = names.includes('thumbnail.jpg') ? 'thumbnail.jpg' : null;
  await saveDownloaded(db, {
    id,
    title: dl.info.title,
    durationSeconds: duration,
    sourceUrl,
    videoFile: 'video.mp4',
    thumbnailFile: thumbnailName,
    subtitleFile: subtitleName,
    infoFile: 'info.json',
  });

  const urls = mediaUrls(id);
  const repaired = check.repaired === 'no' ? '' : ` The file was not a valid MP4 and was ${check.repaired} with ffmpeg.`;
  return {
    success: true,
    message: `Downloaded "${dl.info.title || id}".${repaired}`,
    video_id: id,
    title: dl.info.title || id,
    thumbnail: thumbnailName ? urls.thumbnail : '',
    local_path: urls.video,
    ...(dl.subtitleWarning ? { subtitle_warning: dl.subtitleWarning } : {}),
    files: names.sort().map((n) => store.location(videoKey(id, n))),
    duration,
    auth_source: dl.authSource,
    used_player_client: dl.playerClients,
  };
}

/**
 * thumbnail.jpg from the platform's image (any format), else a picture of the video near its
 * start. Not fatal: a video without a thumbnail still plays.
 */
async function writeThumbnail(deps: DownloadDeps, tools: MediaTools, id: string, platformImage: string | undefined, video: string, out: string, duration: number): Promise<void> {
  const at = Math.min(1, duration / 3);
  for (const [source, seek] of [...(platformImage ? [[platformImage, 0] as const] : []), [video, at] as const]) {
    try {
      await makeThumbnail(tools, source, out, seek);
      return;
    } catch (err) {
      deps.logger.warn({ videoId: id, source: path.basename(source), err: (err as Error).message }, 'thumbnail failed');
    }
  }
}

/**
 * Our id for what yt-dlp found: the platform's own 11-character id, or for other hosts yt-dlp's
 * id made safe for paths (letters, digits, '_' and '-'), or a hash when nothing safe is left.
 */
export function localVideoId(info: Pick<VideoInfo, 'id'>, platform: boolean): string {
  if (platform && /^[A-Za-z0-9_-]{11}$/.test(info.id)) return info.id;
  const cleaned = info.id
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 64);
  return VIDEO_ID_RE.test(cleaned) ? cleaned : `v${crypto.createHash('sha256').update(info.id).digest('hex').slice(0, 16)}`;
}

/** What we keep of yt-dlp's info JSON: descriptive fields only (no format URLs, headers or cookies). */
export function publicInfo(info: VideoInfo): Record<string, unknown> {
  const keep = ['id', 'title', 'description', 'duration', 'uploader', 'channel', 'channel_id', 'upload_date', 'webpage_url', 'extractor', 'extractor_key', 'tags', 'categories', 'chapters', 'language', 'width', 'height', 'fps', 'vcodec', 'acodec', 'format_id', 'age_limit'];
  const out: Record<string, unknown> = {};
  for (const k of keep) if (info[k] !== undefined && info[k] !== null) out[k] = info[k];
  out.subtitle_languages = Object.keys(info.subtitles ?? {});
  out.automatic_caption_languages = Object.keys(info.automatic_captions ?? {}).filter((l) => /^en/i.test(l));
  return out;
}

/** ffmpeg / ffprobe failures after yt-dlp succeeded. */
function mediaFailure(err: unknown): DownloadFailure | undefined {
  if (err instanceof BinaryMissingError) return new DownloadFailure(classified('binary_missing', err.message));
  if (err instanceof ProcessError) {
    if (err.kind === 'timeout') return new DownloadFailure(classified('timeout'));
    if (err.kind === 'aborted') return new DownloadFailure(classified('cancelled'));
    return new DownloadFailure(classified('invalid_container', `ffmpeg could not process the downloaded file: ${err.message}`));
  }
  return undefined;
}
