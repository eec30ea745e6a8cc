import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { conflict, notFound } from '../http/errors.js';
import { videoDir, videosRoot } from '../pipeline/paths.js';
import { mediaStore } from '../storage/index.js';
import { videoPrefix } from '../storage/keys.js';
import { deleteVideoRows, getVideo, lockHolder } from './videos.repository.js';

export interface DeletedVideo {
  video_id: string;
  title: string;
  is_sample: boolean;
  /** quiz attempts of this video: kept (history outlives the video, with its title) */
  attempts_kept: number;
  /** unfinished plays of this video: removed (there is nothing left to resume) */
  checkpoints_removed: number;
}

/**
 * An admin deletes a video from the library: its row goes, and with it (ON DELETE CASCADE) its
 * assignments, claim, generated and reviewed questions and notes; a `deleted_videos` row
 * remembers it (so the bundled sample is not re-imported on the next start). Children's quiz
 * attempts are kept: quiz_attempts has no foreign key to videos and keeps the title. The media
 * (the `videos/<id>/` prefix of the media store, on disk or in the bucket) are removed only
 * after the commit, so a failed delete never leaves a row without its files. Refused (409)
 * while a download or frame extraction of the video runs.
 */
export async function deleteVideo(db: Database, config: Config, videoId: string): Promise<DeletedVideo> {
  const result = await db.transaction(async (tx) => {
    const video = await getVideo(tx, videoId);
    if (!video) throw notFound(`Video ${videoId} was not found.`, 'video_not_found');
    const busy = await lockHolder(tx, `video:${videoId}`);
    if (busy || video.state === 'downloading') {
      throw conflict(`"${video.title}" is busy (${busy ?? 'download'} running); delete it when that has finished.`, 'video_busy');
    }
    const removed = await deleteVideoRows(tx, video);
    return { video_id: videoId, title: video.title, is_sample: video.isSample, attempts_kept: removed.attempts, checkpoints_removed: removed.checkpoints };
  });
  try {
    await mediaStore(config).deletePrefix(videoPrefix(videoId));
  } catch {
    // the row is gone already, so nothing serves these objects; a later download of the id replaces them
  }
  // with a bucket the local folder holds at most temp work left by a crash (or an export written
  // before exports went through the store): remove it too
  removeMedia(config.dataDir, videoId);
  return result;
}

/** Renames the folder to a dot-name first (media routes never serve it again), then removes it. */
function removeMedia(dataDir: string, videoId: string): void {
  const dir = videoDir(dataDir, videoId);
  if (!fs.existsSync(dir)) return;
  const trash = path.join(videosRoot(dataDir), `.deleted-${videoId}-${crypto.randomBytes(4).toString('hex')}`);
  try {
    fs.renameSync(dir, trash);
    fs.rmSync(trash, { recursive: true, force: true });
  } catch {
    // the row is gone already, so nothing serves these files; a later download of the id replaces them
  }
}
