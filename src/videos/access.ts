import type { Db } from '../db/database.js';
import type { Auth } from '../http/session.js';
import { forbidden, notFound } from '../http/errors.js';

/**
 * Which videos a caller may see. Admin: all. Expert: assigned to or claimed by them. Child
 * session: what the family's expert may see. The bundled sample is no exception: it reaches a
 * family through its expert (on first start it is assigned to the demo expert).
 */
export function canSeeVideo(db: Db, auth: Auth, videoId: string): boolean {
  if (auth.role === 'admin') return true;
  if (auth.role === 'anonymous') return false;
  return expertCanSeeVideo(db, auth.expertId, videoId);
}

export function expertCanSeeVideo(db: Db, expertId: string, videoId: string): boolean {
  const row = db.firstSync(
    `SELECT 1 FROM videos v WHERE v.id = ? AND v.state = 'downloaded' AND (
       EXISTS (SELECT 1 FROM video_assignments a WHERE a.video_id = v.id AND a.expert_id = ?)
       OR EXISTS (SELECT 1 FROM video_claims c WHERE c.video_id = v.id AND c.expert_id = ?))`,
    [videoId, expertId, expertId],
  );
  return row !== undefined;
}

/** SQL condition (on alias v) + params listing the videos an expert may see. */
export function expertVideoFilter(expertId: string): { where: string; params: string[] } {
  return {
    where: `(EXISTS (SELECT 1 FROM video_assignments a WHERE a.video_id = v.id AND a.expert_id = ?)
       OR EXISTS (SELECT 1 FROM video_claims c WHERE c.video_id = v.id AND c.expert_id = ?))`,
    params: [expertId, expertId],
  };
}

/** 404 when the video does not exist, 403 when it exists but is not the caller's. */
export function assertVideoAccess(db: Db, auth: Auth, videoId: string): void {
  const exists = db.firstSync('SELECT 1 FROM videos WHERE id = ?', [videoId]);
  if (!exists) throw notFound(`Video ${videoId} was not found.`, 'video_not_found');
  if (!canSeeVideo(db, auth, videoId)) throw forbidden('This video is not one of yours.', 'video_not_yours');
}
