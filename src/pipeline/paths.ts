import { VIDEO_ID_RE, safeJoin } from '../http/ids.js';

/**
 * Where a video's media lives: `videos/<video_id>/` holds the video file, thumbnail, subtitles
 * and info JSON (their names are stored in the videos table), and `frames/` holds the JPEGs with
 * `frames.csv` and `frames.json`, in the media store (src/storage/: keys of the same layout,
 * under DATA_DIR or in a bucket). These are the local folders (the default store's root, temp
 * work). Ids are checked against the strict pattern before a path is built, and safeJoin
 * re-checks that the result stays under the data root.
 */
export const FRAMES_DIR_NAME = 'frames';
export const FRAMES_JSON = 'frames.json';
export const FRAMES_CSV = 'frames.csv';

export function videosRoot(dataDir: string): string {
  return safeJoin(dataDir, 'videos');
}

export function videoDir(dataDir: string, videoId: string): string {
  assertVideoId(videoId);
  return safeJoin(dataDir, 'videos', videoId);
}

function assertVideoId(videoId: string): void {
  if (!VIDEO_ID_RE.test(videoId)) throw new Error(`invalid video id ${JSON.stringify(videoId)}`);
}
