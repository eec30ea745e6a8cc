import crypto from 'node:crypto';
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

/**
 * A video's frames live in a *set*: a folder `videos/<id>/<set>/` holding the JPEGs and the
 * manifests of one extraction. The set in use is named by the videos row (`frames_set`, null =
 * the folder `frames` of media written before sets existed). A new extraction writes a new set,
 * switches the row in one UPDATE and then deletes the older sets, so a reader that resolves the
 * set from the row sees one whole extraction, never a mix of two (docs/scaling.md).
 */
export const FRAMES_SET_RE = /^frames(?:-[a-z0-9]{1,40})?$/;

function checkSet(set: string | null | undefined): string {
  const s = set ?? FRAMES_DIR_NAME;
  if (!FRAMES_SET_RE.test(s)) throw new Error(`invalid frames set ${JSON.stringify(s)}`);
  return s;
}

/**
 * Every frame set's folder starts with `frames` (FRAMES_SET_RE): as a listing's delimiter,
 * `/frames` folds each set into one entry, so a listing of `videos/` returns the files beside
 * the videos (video, thumbnail, subtitles, questions export), not their thousands of frames
 * (questions/export.ts). A file whose name starts with `frames` is folded too; such a listing
 * must only look for names that do not.
 */
export const FRAMES_DELIMITER = `/${FRAMES_DIR_NAME}`;

/** A fresh set name: `frames-<time><random>` (sorts by creation time; never `frames` itself). */
export const newFramesSet = (): string => `${FRAMES_DIR_NAME}-${Date.now().toString(36)}${crypto.randomBytes(4).toString('hex')}`;
export const framesPrefix = (videoId: string, set?: string | null): string => `${videoPrefix(videoId)}${checkSet(set)}/`;
export const frameKey = (videoId: string, name: string, set?: string | null): string => assertKey(`${framesPrefix(videoId, set)}${checkName(name)}`);

/** The frame sets present under a video's keys (from store.list(videoPrefix(id))), sorted. */
export function frameSetsIn(videoId: string, keys: readonly string[]): string[] {
  const prefix = videoPrefix(videoId);
  const sets = new Set<string>();
  for (const k of keys) {
    if (!k.startsWith(prefix)) continue;
    const parts = k.slice(prefix.length).split('/');
    if (parts.length === 2 && FRAMES_SET_RE.test(parts[0]!)) sets.add(parts[0]!);
  }
  return [...sets].sort();
}
