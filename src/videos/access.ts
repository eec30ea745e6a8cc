import type { Database } from '../db/database.js';
import type { Auth } from '../http/session.js';
import { forbidden, notFound } from '../http/errors.js';
import { expertHasVideo, videoExists } from './videos.repository.js';

/**
 * Which videos a caller may see. Admin: all. Expert: assigned to or claimed by them. Child
 * session: what the family's expert may see. The bundled sample is no exception: it reaches a
 * family through its expert (on first start it is assigned to the demo expert).
 */
export async function canSeeVideo(db: Database, auth: Auth, videoId: string): Promise<boolean> {
  if (auth.role === 'admin') return true;
  if (auth.role === 'anonymous') return false;
  return expertCanSeeVideo(db, auth.expertId, videoId);
}

export function expertCanSeeVideo(db: Database, expertId: string, videoId: string): Promise<boolean> {
  return expertHasVideo(db, expertId, videoId);
}

/** 404 when the video does not exist, 403 when it exists but is not the caller's. */
export async function assertVideoAccess(db: Database, auth: Auth, videoId: string): Promise<void> {
  if (!(await videoExists(db, videoId))) throw notFound(`Video ${videoId} was not found.`, 'video_not_found');
  if (!(await canSeeVideo(db, auth, videoId))) throw forbidden('This video is not one of yours.', 'video_not_yours');
}
