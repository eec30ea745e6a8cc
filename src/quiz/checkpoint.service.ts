import type { Database } from '../db/database.js';
import { assertChildAccess } from '../accounts/access.js';
import type { Auth } from '../http/session.js';
import { AttemptsRepository, type CheckpointRow } from './attempts.repository.js';
import { toAnswer } from './details.js';
import { answerView, assertQuizTarget, sessionCompanion } from './quiz.service.js';
import type { CheckpointInput } from './quiz.schema.js';

/**
 * Checkpoints: where a child left a video, saved when the player is left (PUT, or POST from
 * navigator.sendBeacon) and read back to resume. One per child and video; saving the finished
 * attempt removes it. Its answers so far use the same detail objects as an attempt.
 */

export function checkpointView(c: CheckpointRow) {
  const details = JSON.parse(c.details_json) as Record<string, unknown>[];
  return {
    child_id: c.child_id,
    video_id: c.video_id,
    position_seconds: c.position_seconds,
    furthest_seconds: c.furthest_seconds,
    duration_seconds: c.duration_seconds,
    watch_minutes: c.watch_minutes,
    interaction_mode: c.interaction_mode,
    companion: c.companion,
    total_retries: c.total_retries,
    details,
    answered_segments: details.map((d) => d.segment_range_start).filter((s) => typeof s === 'number'),
    updated_at: c.updated_at,
  };
}

export async function putCheckpoint(db: Database, auth: Auth, childId: string, videoId: string, input: CheckpointInput, companionInSession?: unknown) {
  await assertQuizTarget(db, auth, childId, videoId);
  const answers = (input.details ?? []).map(toAnswer);
  const details = answers.map((a, position) => answerView({ ...a, id: 0, attempt_id: 0, position }));
  const position = input.position_seconds ?? 0;
  const row = await new AttemptsRepository(db).putCheckpoint({
    child_id: childId,
    video_id: videoId,
    position_seconds: position,
    furthest_seconds: Math.max(position, input.furthest_seconds ?? 0),
    duration_seconds: input.duration_seconds ?? null,
    watch_minutes: input.watch_minutes ?? 0,
    interaction_mode: input.interaction_mode ?? null,
    companion: input.companion ?? sessionCompanion(companionInSession),
    total_retries: input.total_retries ?? answers.reduce((sum, a) => sum + a.retries, 0),
    details_json: JSON.stringify(details),
  });
  return checkpointView(row);
}

export async function getCheckpoint(db: Database, auth: Auth, childId: string, videoId: string) {
  await assertChildAccess(db, auth, childId);
  const row = await new AttemptsRepository(db).checkpoint(childId, videoId);
  return row ? checkpointView(row) : null;
}

export async function listCheckpoints(db: Database, auth: Auth, childId: string) {
  await assertChildAccess(db, auth, childId);
  return (await new AttemptsRepository(db).checkpoints([childId])).map(checkpointView);
}

export async function deleteCheckpoint(db: Database, auth: Auth, childId: string, videoId: string): Promise<boolean> {
  await assertChildAccess(db, auth, childId);
  return new AttemptsRepository(db).deleteCheckpoint(childId, videoId);
}

/** The resume point of a video (its checkpoint) and the last finished attempt of it. */
export async function videoProgress(db: Database, auth: Auth, childId: string, videoId: string) {
  const checkpoint = await getCheckpoint(db, auth, childId, videoId);
  const [last] = await new AttemptsRepository(db).attempts({ childIds: [childId], videoId, limit: 1 });
  return {
    success: true as const,
    child_id: childId,
    video_id: videoId,
    checkpoint,
    last_completed: last ? { attempt_id: last.id, percentage: last.percentage, created_at: last.created_at } : null,
  };
}
