import type { Database } from '../db/database.js';

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

export function listAssignments(db: Database): Promise<Assignment[]> {
  return db.all<Assignment>(
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

export async function assignmentsByVideo(db: Database): Promise<VideoAssignments[]> {
  const videos = await db.all<{ id: string; title: string; is_sample: number }>(
    `SELECT id, title, is_sample FROM videos WHERE state = 'downloaded' ORDER BY is_sample ASC, created_at DESC, id ASC`,
  );
  const byVideo = new Map<string, VideoAssignments['assigned_experts']>();
  for (const a of [...(await listAssignments(db))].reverse()) {
    byVideo.set(a.video_id, [...(byVideo.get(a.video_id) ?? []), { expert_id: a.expert_id, expert_name: a.expert_name, assigned_at: a.assigned_at }]);
  }
  const claims = new Map((await listClaims(db)).map((c) => [c.video_id, { expert_id: c.expert_id, expert_name: c.expert_name }]));
  return videos.map((v) => ({
    video_id: v.id,
    title: v.title,
    is_sample: v.is_sample === 1,
    assigned_experts: byVideo.get(v.id) ?? [],
    claimed_by: claims.get(v.id) ?? null,
  }));
}

export function listClaims(db: Database): Promise<Claim[]> {
  return db.all<Claim>(
    `SELECT c.video_id, c.expert_id, e.display_name AS expert_name, v.title, c.claimed_at
       FROM video_claims c JOIN experts e ON e.id = c.expert_id JOIN videos v ON v.id = c.video_id
      ORDER BY c.claimed_at DESC, c.video_id`,
  );
}

/** Returns false when the assignment already existed. */
export async function assign(db: Database, videoId: string, expertId: string): Promise<boolean> {
  const r = await db.run('INSERT INTO video_assignments (video_id, expert_id, assigned_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [
    videoId,
    expertId,
    new Date().toISOString(),
  ]);
  return r.changes > 0;
}

export async function unassign(db: Database, videoId: string, expertId: string): Promise<boolean> {
  return (await db.run('DELETE FROM video_assignments WHERE video_id = ? AND expert_id = ?', [videoId, expertId])).changes > 0;
}

export async function assignedExperts(db: Database, videoId: string): Promise<string[]> {
  return (await db.all<{ expert_id: string }>('SELECT expert_id FROM video_assignments WHERE video_id = ? ORDER BY expert_id', [videoId])).map((r) => r.expert_id);
}

export async function claimOwner(db: Database, videoId: string): Promise<string | undefined> {
  return (await db.first<{ expert_id: string }>('SELECT expert_id FROM video_claims WHERE video_id = ?', [videoId]))?.expert_id;
}

/** Claims an unclaimed video atomically; returns the owner afterwards (the caller, or whoever was first). */
export async function claim(db: Database, videoId: string, expertId: string): Promise<string> {
  await db.run('INSERT INTO video_claims (video_id, expert_id, claimed_at) VALUES (?, ?, ?) ON CONFLICT(video_id) DO NOTHING', [
    videoId,
    expertId,
    new Date().toISOString(),
  ]);
  return (await claimOwner(db, videoId))!;
}

export async function unclaim(db: Database, videoId: string, expertId: string): Promise<boolean> {
  return (await db.run('DELETE FROM video_claims WHERE video_id = ? AND expert_id = ?', [videoId, expertId])).changes > 0;
}

/** Per video: whether it is assigned to `expertId`, and who claimed it. */
export async function relationsFor(db: Database, expertId: string): Promise<{ assigned: Set<string>; claims: Map<string, string> }> {
  const assigned = new Set((await db.all<{ video_id: string }>('SELECT video_id FROM video_assignments WHERE expert_id = ?', [expertId])).map((r) => r.video_id));
  const claims = new Map((await db.all<{ video_id: string; expert_id: string }>('SELECT video_id, expert_id FROM video_claims')).map((r) => [r.video_id, r.expert_id]));
  return { assigned, claims };
}
