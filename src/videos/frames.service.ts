import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import { conflict, notFound, serviceUnavailable, AppError } from '../http/errors.js';
import { removeQuietly, tempSibling } from '../pipeline/files.js';
import { buildManifest, runFrameExtraction, writeManifests, type FrameManifest } from '../pipeline/frames.js';
import { framesDir, videoDir, videoFile } from '../pipeline/paths.js';
import { BinaryMissingError, ProcessError } from '../pipeline/process-runner.js';
import { parseVtt, type Cue } from '../pipeline/subtitles.js';
import { getVideo, releaseLock, setFrameCount, tryLock, type Video } from './videos.repository.js';

export interface FrameDeps {
  config: Config;
  db: Database;
  logger: Logger;
  signal?: AbortSignal;
  /** 0..1 of the video read by ffmpeg */
  onProgress?: (fraction: number) => void;
}

export interface FrameExtraction {
  videoId: string;
  outputDir: string;
  /** absolute paths of the frame files, frame 0 first */
  files: string[];
  count: number;
  manifest: FrameManifest;
}

/**
 * Extracts a downloaded video's frames (1 per second, frame k at t = k s) with the subtitle text
 * of each second, for any caller (the route, the sample import, generation). The new frames are
 * written to a temp dir beside `frames/` and swapped in by rename, so a reader sees the old set or
 * the new one, never a mix; the old set is kept if anything fails.
 * Throws AppError: 404 unknown video, 409 still downloading or already extracting, 503 no ffmpeg.
 */
export async function extractFrames(deps: FrameDeps, videoId: string): Promise<FrameExtraction> {
  const { config, db } = deps;
  const log = deps.logger.child({ module: 'frames' });
  const { video, source } = await frameSource(deps, videoId);

  const lock = await tryLock(db, `video:${videoId}`, 'frames');
  if (!lock.ok) {
    throw conflict(
      lock.heldBy === 'frames' ? 'Frames of this video are already being extracted.' : 'This video is being downloaded; extract frames when it has finished.',
      'video_busy',
    );
  }
  const finalDir = framesDir(config.dataDir, videoId);
  const tmpDir = tempSibling(path.join(videoDir(config.dataDir, videoId), '.frames'), 'new');
  const oldDir = tempSibling(path.join(videoDir(config.dataDir, videoId), '.frames'), 'old');
  try {
    fs.mkdirSync(tmpDir, { recursive: true });
    const timeoutMs = 10 * 60_000 + Math.ceil(video.durationSeconds) * 3000;
    const names = await runFrameExtraction(
      { ffmpeg: config.FFMPEG_PATH, logger: log, signal: deps.signal, timeoutMs, durationSeconds: video.durationSeconds, onProgress: deps.onProgress },
      source,
      tmpDir,
    );
    if (names.length === 0) throw new AppError(422, 'no_frames', 'ffmpeg produced no frames: the video has no pictures.');
    const manifest = buildManifest(videoId, names, readCues(config.dataDir, videoId, video.subtitleFile, log));
    writeManifests(tmpDir, manifest);

    if (fs.existsSync(finalDir)) fs.renameSync(finalDir, oldDir);
    fs.renameSync(tmpDir, finalDir);
    await setFrameCount(db, videoId, manifest.count);
    log.info({ videoId, count: manifest.count }, 'frames extracted');
    return { videoId, outputDir: finalDir, files: names.map((n) => path.join(finalDir, n)), count: manifest.count, manifest };
  } catch (err) {
    if (!fs.existsSync(finalDir) && fs.existsSync(oldDir)) fs.renameSync(oldDir, finalDir);
    if (err instanceof BinaryMissingError) throw serviceUnavailable(err.message, 'binary_missing');
    if (err instanceof ProcessError) {
      log.warn({ videoId, err: err.message, stderr: err.stderr.slice(-2000) }, 'frame extraction failed');
      throw new AppError(err.kind === 'timeout' ? 504 : 422, 'frames_failed', `Frame extraction failed: ${err.message}`);
    }
    throw err;
  } finally {
    removeQuietly(tmpDir);
    removeQuietly(oldDir);
    await releaseLock(db, lock.lock);
  }
}

/**
 * The video and its file, or the AppError that says why frames cannot be extracted (also
 * checked before a frames job is queued): 404 unknown video or missing file, 409 still downloading.
 */
export async function frameSource(deps: Pick<FrameDeps, 'config' | 'db'>, videoId: string): Promise<{ video: Video; source: string }> {
  const video = await getVideo(deps.db, videoId);
  if (!video) throw notFound(`Video ${videoId} was not found.`, 'video_not_found');
  if (video.state !== 'downloaded' || !video.videoFile) throw conflict('This video is still downloading; extract its frames when the download has finished.', 'video_not_ready');
  const source = videoFile(deps.config.dataDir, videoId, video.videoFile);
  if (!fs.existsSync(source)) throw notFound('The video file is missing on the server; download the video again.', 'video_file_missing');
  return { video, source };
}

function readCues(dataDir: string, videoId: string, subtitleFile: string | null, log: Logger): Cue[] {
  if (!subtitleFile) return [];
  try {
    return parseVtt(fs.readFileSync(videoFile(dataDir, videoId, subtitleFile), 'utf8'));
  } catch (err) {
    log.warn({ videoId, err: (err as Error).message }, 'subtitles unreadable; frames get no subtitle text');
    return [];
  }
}
