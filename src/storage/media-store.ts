import type { Readable } from 'node:stream';

/**
 * Where media lives: the local DATA_DIR (the embedded default) or an S3-compatible bucket
 * (S3_BUCKET set). Keys are relative, '/'-separated and strict (see assertKey): a video's files
 * are `videos/<video_id>/<name>`, its frames `videos/<video_id>/<frame set>/<name>` (a set per
 * extraction, named by the videos row: storage/keys.ts), the same layout on disk and in the
 * bucket, so moving a school is a plain upload of DATA_DIR/videos.
 * Every write is whole-or-nothing for a reader: a temp file + rename on disk, a single PUT or a
 * completed multipart upload in a bucket.
 */
export interface MediaStore {
  readonly kind: 'local' | 's3';
  /** Stores a local file under key. `move` lets the local store rename it instead of copying. */
  putFile(key: string, file: string, opts?: { move?: boolean }): Promise<void>;
  putBuffer(key: string, data: Buffer | string): Promise<void>;
  /** The whole object, or null when there is none. */
  getBuffer(key: string): Promise<Buffer | null>;
  /** Copies the object to a local file; false when there is none. */
  download(key: string, file: string): Promise<boolean>;
  stat(key: string): Promise<MediaStat | null>;
  exists(key: string): Promise<boolean>;
  /** Bytes start..end (inclusive) or the whole object; null when there is none. Throws RangeNotSatisfiable. */
  read(key: string, range?: ByteRange): Promise<MediaRead | null>;
  delete(key: string): Promise<void>;
  /** Removes every key under prefix (which ends with '/'); returns how many went. */
  deletePrefix(prefix: string): Promise<number>;
  /**
   * Every key under prefix (which ends with '/'), sorted. With `delimiter`, S3's ListObjectsV2
   * Delimiter: a key whose part after prefix contains it is left out (S3 folds all such keys into
   * one common prefix, so a folder of thousands of frames costs one entry of a listing page, not
   * thousands; the local store does not walk into such a folder).
   */
  list(prefix: string, opts?: ListOptions): Promise<string[]>;
  /**
   * Replaces everything under prefix with the files of a local folder (flat, no sub-folders),
   * the folder's `last` files written after the others (manifests after the frames they name).
   * The folder is consumed. Local: a rename swap (atomic only for a prefix that did not exist;
   * replacing one leaves it missing for a moment). S3: the new objects are written, then stale
   * ones deleted (a reader may see new objects beside old ones for a moment). Readers that must
   * see one whole set (frames) get it by writing to a fresh prefix and switching a pointer:
   * videos/frames.service.ts.
   */
  replacePrefix(prefix: string, dir: string, last?: readonly string[]): Promise<void>;
  /** The object's file on this machine (local store only), for tools that read files (ffmpeg). */
  localPath(key: string): string | null;
  /** How the contract's path fields show an object or a prefix: an absolute path, or s3://bucket/key. */
  location(keyOrPrefix: string): string;
  /** Releases connections (S3 client); the local store has none. */
  close(): void;
}

export interface ListOptions {
  delimiter?: string;
}

/** What both stores do the same way on top of their own stat(). */
export abstract class MediaStoreBase {
  abstract stat(key: string): Promise<MediaStat | null>;

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }
}

/** Whether a key is left out of list(prefix, { delimiter }) (see MediaStore.list). */
export const foldedByDelimiter = (prefix: string, key: string, delimiter: string | undefined): boolean =>
  !!delimiter && key.slice(prefix.length).includes(delimiter);

export interface ByteRange {
  start: number;
  /** inclusive */
  end: number;
}

export interface MediaStat {
  size: number;
  etag?: string;
  lastModified?: Date;
}

export interface MediaRead extends MediaStat {
  body: Readable;
  /** the bytes actually returned */
  range?: ByteRange;
}

export class RangeNotSatisfiable extends Error {
  constructor(readonly size: number) {
    super('range not satisfiable');
  }
}

/** One path segment: starts with a letter or digit (so never '.', '..' or a dot-file), no separators. */
const SEGMENT = '[A-Za-z0-9][A-Za-z0-9._-]{0,127}';
const KEY_RE = new RegExp(`^${SEGMENT}(?:/${SEGMENT}){0,7}$`);
const PREFIX_RE = new RegExp(`^(?:${SEGMENT}/){1,8}$`);

export function assertKey(key: string): string {
  if (!KEY_RE.test(key) || key.split('/').some((s) => s.includes('..'))) throw new Error(`invalid media key ${JSON.stringify(key)}`);
  return key;
}

export function assertPrefix(prefix: string): string {
  if (!PREFIX_RE.test(prefix) || prefix.split('/').some((s) => s.includes('..'))) throw new Error(`invalid media prefix ${JSON.stringify(prefix)}`);
  return prefix;
}

/** Content types of the media we store (for S3 objects and for responses streamed from them). */
const TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  vtt: 'text/vtt; charset=utf-8',
  srt: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}
