import { VIDEO_ID_RE, safeJoin } from '../http/ids.js';

/**
 * Where a video's media lives: `dataDir/videos/<video_id>/` holds the video file, thumbnail,
 * subtitles and info JSON (their names are stored in the videos table), and `frames/` holds the
 * JPEGs with `frames.csv` and `frames.json`. Ids are checked against the strict pattern before
 * a path is built, and safeJoin re-checks that the result stays under the data root.
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

export function framesDir(dataDir: string, videoId: string): string {
  return safeJoin(videoDir(dataDir, videoId), FRAMES_DIR_NAME);
}

/** A file of the video's directory by its stored name (a bare file name, never a path). */
export function videoFile(dataDir: string, videoId: string, name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || name.includes('..')) throw new Error(`invalid media file name ${JSON.stringify(name)}`);
  return safeJoin(videoDir(dataDir, videoId), name);
}

function assertVideoId(videoId: string): void {
  if (!VIDEO_ID_RE.test(videoId)) throw new Error(`invalid video id ${JSON.stringify(videoId)}`);
}
