import crypto from 'node:crypto';
import type { Database } from '../db/database.js';

/** SQL of the videos, video_locks and deleted_videos tables (and who may see a video); rows mapped to camelCase. */
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
  /** the folder of the current frames under `videos/<id>/` (framesPrefix), null = `frames` */
  framesSet: string | null;
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
  frames_set: string | null;
  state: Video['state'];
  is_sample: number;
  created_at: string;
}

const COLUMNS = 'v.id, v.title, v.duration_seconds, v.source_url, v.video_file, v.thumbnail_file, v.subtitle_file, v.info_file, v.frame_count, v.frames_set, v.state, v.is_sample, v.created_at';
const ORDER = 'ORDER BY v.is_sample ASC, v.created_at DESC, v.id ASC';

export async function getVideo(db: Database, id: string): Promise<Video | undefined> {
  const row = await db.first<VideoRow>(`SELECT ${COLUMNS} FROM videos v WHERE v.id = ?`, [id]);
  return row && toVideo(row);
}

export async function videoExists(db: Database, id: string): Promise<boolean> {
  return (await db.first('SELECT 1 AS one FROM videos WHERE id = ?', [id])) !== undefined;
}

/**
 * SQL condition on alias v: the video is assigned to or claimed by the expert named by `expert`,
 * a placeholder (`?`) or a column of the outer query (`ch.expert_id`).
 */
export function expertVideoCondition(expert: string): string {
  return `(EXISTS (SELECT 1 FROM video_assignments a WHERE a.video_id = v.id AND a.expert_id = ${expert})
       OR EXISTS (SELECT 1 FROM video_claims c WHERE c.video_id = v.id AND c.expert_id = ${expert}))`;
}

/** SQL condition (on alias v) + params: the videos assigned to or claimed by the expert. */
function expertVideoFilter(expertId: string): { where: string; params: string[] } {
  return { where: expertVideoCondition('?'), params: [expertId, expertId] };
}

/** Whether the video is downloaded and assigned to or claimed by the expert. */
export async function expertHasVideo(db: Database, expertId: string, videoId: string): Promise<boolean> {
  const f = expertVideoFilter(expertId);
  const row = await db.first(`SELECT 1 AS one FROM videos v WHERE v.id = ? AND v.state = 'downloaded' AND ${f.where}`, [videoId, ...f.params]);
  return row !== undefined;
}

/** Playable videos (state 'downloaded'); with `expertId`, only those that expert may see. */
export async function listVideos(db: Database, opts: { expertId?: string; withFramesOnly?: boolean } = {}): Promise<Video[]> {
  const where = ["v.state = 'downloaded'"];
  const params: string[] = [];
  if (opts.expertId !== undefined) {
    const f = expertVideoFilter(opts.expertId);
    where.push(f.where);
    params.push(...f.params);
  }
  if (opts.withFramesOnly) where.push('v.frame_count > 0');
  return (await db.all<VideoRow>(`SELECT ${COLUMNS} FROM videos v WHERE ${where.join(' AND ')} ${ORDER}`, params)).map(toVideo);
}

/** Downloaded videos nobody has claimed (the bundled sample too, until someone claims it). */
export async function listUnclaimedVideos(db: Database): Promise<Video[]> {
  const rows = await db.all<VideoRow>(
    `SELECT ${COLUMNS} FROM videos v WHERE v.state = 'downloaded'
       AND NOT EXISTS (SELECT 1 FROM video_claims c WHERE c.video_id = v.id) ${ORDER}`,
  );
  return rows.map(toVideo);
}

/** First sight of a video: a 'downloading' row, unless the id is already known. Returns true when inserted. */
export async function insertDownloading(db: Database, v: { id: string; title: string; sourceUrl: string }): Promise<boolean> {
  const now = new Date().toISOString();
  const r = await db.run(
    `INSERT INTO videos (id, title, source_url, state, created_at, updated_at) VALUES (?, ?, ?, 'downloading', ?, ?) ON CONFLICT(id) DO NOTHING`,
    [v.id, v.title || v.id, v.sourceUrl, now, now],
  );
  return r.changes > 0;
}

export async function saveDownloaded(
  db: Database,
  v: { id: string; title: string; durationSeconds: number; sourceUrl: string; videoFile: string; thumbnailFile: string | null; subtitleFile: string | null; infoFile: string | null },
): Promise<void> {
  await db.run(
    `UPDATE videos SET title = ?, duration_seconds = ?, source_url = ?, video_file = ?, thumbnail_file = ?, subtitle_file = ?,
            info_file = ?, state = 'downloaded', updated_at = ?
      WHERE id = ?`,
    [v.title || v.id, v.durationSeconds, v.sourceUrl, v.videoFile, v.thumbnailFile, v.subtitleFile, v.infoFile, new Date().toISOString(), v.id],
  );
}

/** The bundled sample's row: downloaded, with prebuilt files (sample/manifest.json). */
export async function insertSampleVideo(
  db: Database,
  v: { id: string; title: string; durationSeconds: number; videoFile: string; thumbnailFile: string; subtitleFile: string; infoFile: string; frameCount: number },
): Promise<void> {
  const now = new Date().toISOString();
  await db.run(
    `INSERT INTO videos (id, title, duration_seconds, video_file, thumbnail_file, subtitle_file, info_file,
                         frame_count, state, is_sample, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'downloaded', 1, ?, ?)`,
    [v.id, v.title, v.durationSeconds, v.videoFile, v.thumbnailFile, v.subtitleFile, v.infoFile, v.frameCount, now, now],
  );
}

/** Removes a row left 'downloading' by a failed first download. */
export async function deleteIfDownloading(db: Database, id: string): Promise<void> {
  await db.run(`DELETE FROM videos WHERE id = ? AND state = 'downloading'`, [id]);
}

/** After a restart no download runs: rows still 'downloading' are leftovers. Returns their ids. */
export async function removeInterruptedDownloads(db: Database): Promise<string[]> {
  return db.transaction(async (tx) => {
    const ids = (await tx.all<{ id: string }>(`SELECT id FROM videos WHERE state = 'downloading' ORDER BY id`)).map((r) => r.id);
    await tx.run(`DELETE FROM videos WHERE state = 'downloading'`);
    return ids;
  });
}

/**
 * Points the video at a new set of frames: the count and the set's folder in one write, so a
 * reader gets the old set or the new one, never a mix (frames.service.ts).
 */
export async function setFrames(db: Database, id: string, count: number, framesSet: string): Promise<void> {
  await db.run('UPDATE videos SET frame_count = ?, frames_set = ?, updated_at = ? WHERE id = ?', [count, framesSet, new Date().toISOString(), id]);
}

// --- deleting ----------------------------------------------------------------------------------

/** Whether an admin deleted the video (a sample is then not imported again). */
export async function isDeletedVideo(db: Database, id: string): Promise<boolean> {
  return (await db.first('SELECT 1 AS one FROM deleted_videos WHERE id = ?', [id])) !== undefined;
}

/**
 * The database side of deleting a video (run in a transaction): its unfinished plays go, its row
 * goes (ON DELETE CASCADE takes assignments, claim, questions and notes), a deleted_videos row
 * remembers it. Quiz attempts are kept (they carry the title). Returns what was kept and removed.
 */
export async function deleteVideoRows(db: Database, video: Pick<Video, 'id' | 'title' | 'isSample'>): Promise<{ attempts: number; checkpoints: number }> {
  const attempts = Number((await db.first<{ n: number }>('SELECT count(*) AS n FROM quiz_attempts WHERE video_id = ?', [video.id]))!.n);
  const checkpoints = (await db.run('DELETE FROM quiz_checkpoints WHERE video_id = ?', [video.id])).changes;
  await db.run('DELETE FROM videos WHERE id = ?', [video.id]);
  await db.run(
    `INSERT INTO deleted_videos (id, title, is_sample, deleted_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET title = excluded.title, is_sample = excluded.is_sample, deleted_at = excluded.deleted_at`,
    [video.id, video.title, video.isSample ? 1 : 0, new Date().toISOString()],
  );
  return { attempts, checkpoints };
}

// --- locks -------------------------------------------------------------------------------------

export type LockKind = 'download' | 'frames';

export interface HeldLock {
  key: string;
  owner: string;
}

/** Takes the lock, or returns the kind of the job that holds it. */
export async function tryLock(db: Database, key: string, kind: LockKind): Promise<{ ok: true; lock: HeldLock } | { ok: false; heldBy: LockKind }> {
  const owner = crypto.randomBytes(8).toString('hex');
  const r = await db.run('INSERT INTO video_locks (key, kind, owner) VALUES (?, ?, ?) ON CONFLICT(key) DO NOTHING', [key, kind, owner]);
  if (r.changes > 0) return { ok: true, lock: { key, owner } };
  const held = await lockHolder(db, key);
  return { ok: false, heldBy: held ?? kind };
}

/** The kind of job holding the lock, if any. */
export async function lockHolder(db: Database, key: string): Promise<LockKind | undefined> {
  return (await db.first<{ kind: LockKind }>('SELECT kind FROM video_locks WHERE key = ?', [key]))?.kind;
}

export async function releaseLock(db: Database, lock: HeldLock): Promise<void> {
  await db.run('DELETE FROM video_locks WHERE key = ? AND owner = ?', [lock.key, lock.owner]);
}

export async function clearLocks(db: Database): Promise<void> {
  await db.run('DELETE FROM video_locks');
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
    framesSet: r.frames_set,
    state: r.state,
    isSample: r.is_sample === 1,
    createdAt: r.created_at,
  };
}
