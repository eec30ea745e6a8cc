import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import { conflict, notFound, serviceUnavailable, AppError } from '../http/errors.js';
import { removeQuietly, tempSibling } from '../pipeline/files.js';
import { buildManifest, runFrameExtraction, writeManifests, type FrameManifest } from '../pipeline/frames.js';
import { FRAMES_CSV, FRAMES_JSON, videoDir } from '../pipeline/paths.js';
import { mediaStore, type MediaStore } from '../storage/index.js';
import { frameKey, frameSetsIn, framesPrefix, newFramesSet, videoKey, videoPrefix } from '../storage/keys.js';
import { BinaryMissingError, ProcessError } from '../pipeline/process-runner.js';
import { parseVtt, type Cue } from '../pipeline/subtitles.js';
import { getVideo, releaseLock, setFrames, tryLock, type Video } from './videos.repository.js';

export interface FrameDeps {
  config: Config;
  db: Database;
  logger: Logger;
  signal?: AbortSignal;
  /** where the media are; default mediaStore(config) (tests pass a store that watches the writes) */
  store?: MediaStore;
  /** 0..1 of the video read by ffmpeg */
  onProgress?: (fraction: number) => void;
}

export interface FrameExtraction {
  videoId: string;
  outputDir: string;
  /** where the frame files are (absolute paths, or s3:// URLs with S3_BUCKET), frame 0 first */
  files: string[];
  count: number;
  manifest: FrameManifest;
}

/**
 * Extracts a downloaded video's frames (1 per second, frame k at t = k s) with the subtitle text
 * of each second, for any caller (the route, the sample import, generation). ffmpeg works in a
 * temp folder (`videos/<id>/.frames.work-*` under DATA_DIR, with a copy of the video when it
 * lives in a bucket). The result goes into the media store as a new *frame set*
 * (`videos/<id>/frames-<gen>/`, see storage/keys.ts): written whole (on disk one rename; in a
 * bucket the frames first, the manifests last), then the videos row is pointed at it with the
 * frame count in one UPDATE, then older sets are deleted. A reader resolves the set from the row,
 * so it sees the old extraction or the new one, never a mix, and never an empty folder. The old
 * set is kept if anything fails before the switch; the temp folder is removed on success,
 * failure and cancel.
 * Throws AppError: 404 unknown video, 409 still downloading or already extracting, 503 no ffmpeg.
 */
export async function extractFrames(deps: FrameDeps, videoId: string): Promise<FrameExtraction> {
  const { config, db } = deps;
  const log = deps.logger.child({ module: 'frames' });
  const { video, key } = await frameSource(deps, videoId);
  const store = deps.store ?? mediaStore(config);

  const lock = await tryLock(db, `video:${videoId}`, 'frames');
  if (!lock.ok) {
    throw conflict(
      lock.heldBy === 'frames' ? 'Frames of this video are already being extracted.' : 'This video is being downloaded; extract frames when it has finished.',
      'video_busy',
    );
  }
  // inside the video's own local folder (as before the media store), swept at start like any `.frames*`
  const localDir = videoDir(config.dataDir, videoId);
  const workDir = tempSibling(path.join(localDir, '.frames'), 'work');
  const tmpDir = path.join(workDir, 'frames');
  try {
    fs.mkdirSync(tmpDir, { recursive: true });
    const source = await localCopy(store, key, workDir);
    const timeoutMs = 10 * 60_000 + Math.ceil(video.durationSeconds) * 3000;
    const names = await runFrameExtraction(
      { ffmpeg: config.FFMPEG_PATH, logger: log, signal: deps.signal, timeoutMs, durationSeconds: video.durationSeconds, onProgress: deps.onProgress },
      source,
      tmpDir,
    );
    if (names.length === 0) throw new AppError(422, 'no_frames', 'ffmpeg produced no frames: the video has no pictures.');
    const manifest = buildManifest(videoId, names, await readCues(store, videoId, video.subtitleFile, log));
    writeManifests(tmpDir, manifest);

    const set = newFramesSet();
    try {
      // a fresh prefix that nothing points at yet: no reader sees it half-written
      await store.replacePrefix(framesPrefix(videoId, set), tmpDir, [FRAMES_JSON, FRAMES_CSV]);
      await setFrames(db, videoId, manifest.count, set); // the switch
    } catch (err) {
      // the row still names the old set; what got written of the new one is removed (or, if this
      // fails too, by the next extraction's clean-up)
      await store.deletePrefix(framesPrefix(videoId, set)).catch(() => undefined);
      throw err;
    }
    await deleteOlderFrameSets(store, videoId, set, log);
    log.info({ videoId, count: manifest.count, set }, 'frames extracted');
    return {
      videoId,
      outputDir: store.location(framesPrefix(videoId, set)),
      files: names.map((n) => store.location(frameKey(videoId, n, set))),
      count: manifest.count,
      manifest,
    };
  } catch (err) {
    if (err instanceof BinaryMissingError) throw serviceUnavailable(err.message, 'binary_missing');
    if (err instanceof ProcessError) {
      log.warn({ videoId, err: err.message, stderr: err.stderr.slice(-2000) }, 'frame extraction failed');
      throw new AppError(err.kind === 'timeout' ? 504 : 422, 'frames_failed', `Frame extraction failed: ${err.message}`);
    }
    throw err;
  } finally {
    removeQuietly(workDir);
    // with a bucket the local folder held only the temp work: leave no empty folder behind
    if (store.kind !== 'local') {
      try {
        fs.rmdirSync(localDir); // only when empty
      } catch {
        // not empty (the questions export) or already gone
      }
    }
    await releaseLock(db, lock.lock);
  }
}

/**
 * The video and its file's media key, or the AppError that says why frames cannot be extracted
 * (also checked before a frames job is queued): 404 unknown video or missing file, 409 still downloading.
 */
export async function frameSource(deps: Pick<FrameDeps, 'config' | 'db' | 'store'>, videoId: string): Promise<{ video: Video; key: string }> {
  const video = await getVideo(deps.db, videoId);
  if (!video) throw notFound(`Video ${videoId} was not found.`, 'video_not_found');
  if (video.state !== 'downloaded' || !video.videoFile) throw conflict('This video is still downloading; extract its frames when the download has finished.', 'video_not_ready');
  const key = videoKey(videoId, video.videoFile);
  if (!(await (deps.store ?? mediaStore(deps.config)).exists(key))) throw notFound('The video file is missing on the server; download the video again.', 'video_file_missing');
  return { video, key };
}

/** The video as a file ffmpeg can read: the store's own file on disk, else a copy in workDir. */
async function localCopy(store: MediaStore, key: string, workDir: string): Promise<string> {
  const own = store.localPath(key);
  if (own) return own;
  const copy = path.join(workDir, key.slice(key.lastIndexOf('/') + 1));
  if (!(await store.download(key, copy))) throw notFound('The video file is missing on the server; download the video again.', 'video_file_missing');
  return copy;
}

async function readCues(store: MediaStore, videoId: string, subtitleFile: string | null, log: Logger): Promise<Cue[]> {
  if (!subtitleFile) return [];
  try {
    const data = await store.getBuffer(videoKey(videoId, subtitleFile));
    return data ? parseVtt(data.toString('utf8')) : [];
  } catch (err) {
    log.warn({ videoId, err: (err as Error).message }, 'subtitles unreadable; frames get no subtitle text');
    return [];
  }
}

/**
 * Deletes every frame set of the video but `current` (the one the row now names). A failure is
 * only logged: the switch has happened, readers no longer reach the old set, and the next
 * extraction deletes what is left.
 */
async function deleteOlderFrameSets(store: MediaStore, videoId: string, current: string, log: Logger): Promise<void> {
  try {
    for (const set of frameSetsIn(videoId, await store.list(videoPrefix(videoId)))) {
      if (set !== current) await store.deletePrefix(framesPrefix(videoId, set));
    }
  } catch (err) {
    log.warn({ videoId, err: (err as Error).message }, 'older frame sets not deleted; the next extraction retries');
  }
}
