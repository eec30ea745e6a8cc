import { VIDEO_ID_RE } from '../http/ids.js';
import { FRAMES_DIR_NAME } from '../pipeline/paths.js';
import { assertKey } from './media-store.js';

/**
 * The keys of a video's media, the same on disk (under DATA_DIR) and in a bucket:
 * `videos/<video_id>/<file>` and `videos/<video_id>/frames/<file>`. The id and the file name are
 * checked against strict patterns before a key is built.
 */
const FILE_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function checkId(videoId: string): string {
  if (!VIDEO_ID_RE.test(videoId)) throw new Error(`invalid video id ${JSON.stringify(videoId)}`);
  return videoId;
}

function checkName(name: string): string {
  if (!FILE_NAME_RE.test(name) || name.includes('..')) throw new Error(`invalid media file name ${JSON.stringify(name)}`);
  return name;
}

export const VIDEOS_PREFIX = 'videos/';
export const videoPrefix = (videoId: string): string => `${VIDEOS_PREFIX}${checkId(videoId)}/`;
export const videoKey = (videoId: string, name: string): string => assertKey(`${videoPrefix(videoId)}${checkName(name)}`);
export const framesPrefix = (videoId: string): string => `${videoPrefix(videoId)}${FRAMES_DIR_NAME}/`;
export const frameKey = (videoId: string, name: string): string => assertKey(`${framesPrefix(videoId)}${checkName(name)}`);
