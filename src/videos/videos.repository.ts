import crypto from 'node:crypto';
import type { Db } from '../db/database.js';
import { expertVideoFilter } from './access.js';

/** SQL of the videos, video_assignments, video_claims and video_locks tables; rows mapped to camelCase. */
export interface Video {
  id: string;
  title: string;
  durationSeconds: number;
  sourceUrl: string | null;
  videoFile: string | null;
  thumbnailFile: string | null;
  subtitleFile: string | null;
  infoFile: string | null;
  frameCount: number;
  state: 'downloading' | 'downloaded' | 'failed';
  isSample: boolean;
  createdAt: string;
}

interface VideoRow {
  id: string;
  title: string;
  duration_seconds: number;
  source_url: string | null;
  video_file: string | null;
  thumbnail_file: string | null;
  subtitle_file: string | null;
  info_file: string | null;
  frame_count: number;
  state: Video['state'];
  is_sample: number;
  created_at: string;
}

const COLUMNS = 'v.id, v.title, v.duration_seconds, v.source_url, v.video_file, v.thumbnail_file, v.subtitle_file, v.info_file, v.frame_count, v.state, v.is_sample, v.created_at';
const ORDER = 'ORDER BY v.is_sample ASC, v.created_at DESC, v.id ASC';

export function getVideo(db: Db, id: string): Video | undefined {
  const row = db.firstSync<VideoRow>(`SELECT ${COLUMNS} FROM videos v WHERE v.id = ?`, [id]);
  return row && toVideo(row);
}

/** Playable videos (state 'downloaded'); with `expertId`, only those that expert may see. */
export function listVideos(db: Db, opts: { expertId?: string; withFramesOnly?: boolean } = {}): Video[] {
  const where = ["v.state = 'downloaded'"];
  const params: string[] = [];
  if (opts.expertId !== undefined) {
    const f = expertVideoFilter(opts.expertId);
    where.push(f.where);
    params.push(...f.params);
  }
  if (opts.withFramesOnly) where.push('v.frame_count > 0');
  return db.allSync<VideoRow>(`SELECT ${COLUMNS} FROM videos v WHERE ${where.join(' AND ')} ${ORDER}`, params).map(toVideo);
}

/** Downloaded videos nobody has claimed (the bundled sample too, until someone claims it). */
export function listUnclaimedVideos(db: Db): Video[] {
  return db
    .allSync<VideoRow>(
      `SELECT ${COLUMNS} FROM videos v WHERE v.state = 'downloaded'
         AND NOT EXISTS (SELECT 1 FROM video_claims c WHERE c.video_id = v.id) ${ORDER}`,
    )
    .map(toVideo);
}

/** First sight of a video: a 'downloading' row, unless the id is already known. Returns true when inserted. */
export function insertDownloading(db: Db, v: { id: string; title: string; sourceUrl: string }): boolean {
  const r = db.runSync(
    `INSERT INTO videos (id, title, source_url, state) VALUES (?, ?, ?, 'downloading') ON CONFLICT(id) DO NOTHING`,
    [v.id, v.title || v.id, v.sourceUrl],
  );
  return r.changes > 0;
}

export function saveDownloaded(
  db: Db,
  v: { id: string; title: string; durationSeconds: number; sourceUrl: string; videoFile: string; thumbnailFile: string | null; subtitleFile: string | null; infoFile: string | null },
): void {
  db.runSync(
    `UPDATE videos SET title = ?, duration_seconds = ?, source_url = ?, video_file = ?, thumbnail_file = ?, subtitle_file = ?,
            info_file = ?, state = 'downloaded', updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
      WHERE id = ?`,
    [v.title || v.id, v.durationSeconds, v.sourceUrl, v.videoFile, v.thumbnailFile, v.subtitleFile, v.infoFile, v.id],
  );
}

/** Removes a row left 'downloading' by a failed first download. */
export function deleteIfDownloading(db: Db, id: string): void {
  db.runSync(`DELETE FROM videos WHERE id = ? AND state = 'downloading'`, [id]);
}

/** After a restart no download runs: rows still 'downloading' are leftovers. Returns their ids. */
export function removeInterruptedDownloads(db: Db): string[] {
  const ids = db.allSync<{ id: string }>(`SELECT id FROM videos WHERE state = 'downloading'`).map((r) => r.id);
  db.runSync(`DELETE FROM videos WHERE state = 'downloading'`);
  return ids;
}

export function setFrameCount(db: Db, id: string, count: number): void {
  db.runSync(`UPDATE videos SET frame_count = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?`, [count, id]);
}

// --- locks -------------------------------------------------------------------------------------

export type LockKind = 'download' | 'frames';

export interface HeldLock {
  key: string;
  owner: string;
}

/** Takes the lock, or returns the kind of the job that holds it. */
export function tryLock(db: Db, key: string, kind: LockKind): { ok: true; lock: HeldLock } | { ok: false; heldBy: LockKind } {
  const owner = crypto.randomBytes(8).toString('hex');
  const r = db.runSync('INSERT INTO video_locks (key, kind, owner) VALUES (?, ?, ?) ON CONFLICT(key) DO NOTHING', [key, kind, owner]);
  if (r.changes > 0) return { ok: true, lock: { key, owner } };
  const held = db.firstSync<{ kind: LockKind }>('SELECT kind FROM video_locks WHERE key = ?', [key]);
  return { ok: false, heldBy: held?.kind ?? kind };
}

export function releaseLock(db: Db, lock: HeldLock): void {
  db.runSync('DELETE FROM video_locks WHERE key = ? AND owner = ?', [lock.key, lock.owner]);
}

export function clearLocks(db: Db): void {
  db.runSync('DELETE FROM video_locks');
}

function toVideo(r: VideoRow): Video {
  return {
    id: r.id,
    title: r.title,
    durationSeconds: r.duration_seconds,
    sourceUrl: r.source_url,
    videoFile: r.video_file,
    thumbnailFile: r.thumbnail_file,
    subtitleFile: r.subtitle_file,
    infoFile: r.info_file,
    frameCount: r.frame_count,
    state: r.state,
    isSample: r.is_sample === 1,
    createdAt: r.created_at,
  };
}
