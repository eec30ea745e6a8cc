import type { Db } from '../db/database.js';

/** SQL of video_assignments (admin → experts, many) and video_claims (one expert per video). */
export interface Assignment {
  video_id: string;
  expert_id: string;
  expert_name: string;
  title: string;
  assigned_at: string;
}

export interface Claim {
  video_id: string;
  expert_id: string;
  expert_name: string;
  title: string;
  claimed_at: string;
}

export function listAssignments(db: Db): Assignment[] {
  return db.allSync<Assignment>(
    `SELECT a.video_id, a.expert_id, e.display_name AS expert_name, v.title, a.assigned_at
       FROM video_assignments a JOIN experts e ON e.id = a.expert_id JOIN videos v ON v.id = a.video_id
      ORDER BY a.assigned_at DESC, a.video_id, a.expert_id`,
  );
}

/** The original service's shape: every downloaded video with the experts it is assigned to (possibly none). */
export interface VideoAssignments {
  video_id: string;
  title: string;
  is_sample: boolean;
  assigned_experts: { expert_id: string; expert_name: string; assigned_at: string }[];
  claimed_by: { expert_id: string; expert_name: string } | null;
}

export function assignmentsByVideo(db: Db): VideoAssignments[] {
  const videos = db.allSync<{ id: string; title: string; is_sample: number }>(
    `SELECT id, title, is_sample FROM videos WHERE state = 'downloaded' ORDER BY is_sample ASC, created_at DESC, id ASC`,
  );
  const byVideo = new Map<string, VideoAssignments['assigned_experts']>();
  for (const a of [...listAssignments(db)].reverse()) {
    byVideo.set(a.video_id, [...(byVideo.get(a.video_id) ?? []), { expert_id: a.expert_id, expert_name: a.expert_name, assigned_at: a.assigned_at }]);
  }
  const claims = new Map(listClaims(db).map((c) => [c.video_id, { expert_id: c.expert_id, expert_name: c.expert_name }]));
  return videos.map((v) => ({
    video_id: v.id,
    title: v.title,
    is_sample: v.is_sample === 1,
    assigned_experts: byVideo.get(v.id) ?? [],
    claimed_by: claims.get(v.id) ?? null,
  }));
}

export function listClaims(db: Db): Claim[] {
  return db.allSync<Claim>(
    `SELECT c.video_id, c.expert_id, e.display_name AS expert_name, v.title, c.claimed_at
       FROM video_claims c JOIN experts e ON e.id = c.expert_id JOIN videos v ON v.id = c.video_id
      ORDER BY c.claimed_at DESC, c.video_id`,
  );
}

/** Returns false when the assignment already existed. */
export function assign(db: Db, videoId: string, expertId: string): boolean {
  return db.runSync('INSERT INTO video_assignments (video_id, expert_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [videoId, expertId]).changes > 0;
}

export function unassign(db: Db, videoId: string, expertId: string): boolean {
  return db.runSync('DELETE FROM video_assignments WHERE video_id = ? AND expert_id = ?', [videoId, expertId]).changes > 0;
}

export function assignedExperts(db: Db, videoId: string): string[] {
  return db.allSync<{ expert_id: string }>('SELECT expert_id FROM video_assignments WHERE video_id = ?', [videoId]).map((r) => r.expert_id);
}

export function claimOwner(db: Db, videoId: string): string | undefined {
  return db.firstSync<{ expert_id: string }>('SELECT expert_id FROM video_claims WHERE video_id = ?', [videoId])?.expert_id;
}

/** Claims an unclaimed video atomically; returns the owner afterwards (the caller, or whoever was first). */
export function claim(db: Db, videoId: string, expertId: string): string {
  db.runSync('INSERT INTO video_claims (video_id, expert_id) VALUES (?, ?) ON CONFLICT(video_id) DO NOTHING', [videoId, expertId]);
  return claimOwner(db, videoId)!;
}

export function unclaim(db: Db, videoId: string, expertId: string): boolean {
  return db.runSync('DELETE FROM video_claims WHERE video_id = ? AND expert_id = ?', [videoId, expertId]).changes > 0;
}

/** Per video: whether it is assigned to `expertId`, and who claimed it. */
export function relationsFor(db: Db, expertId: string): { assigned: Set<string>; claims: Map<string, string> } {
  const assigned = new Set(db.allSync<{ video_id: string }>('SELECT video_id FROM video_assignments WHERE expert_id = ?', [expertId]).map((r) => r.video_id));
  const claims = new Map(db.allSync<{ video_id: string; expert_id: string }>('SELECT video_id, expert_id FROM video_claims').map((r) => [r.video_id, r.expert_id]));
  return { assigned, claims };
}

export function expertExists(db: Db, expertId: string): boolean {
  return db.firstSync('SELECT 1 FROM experts WHERE id = ?', [expertId]) !== undefined;
}
