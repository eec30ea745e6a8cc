import type { Database } from '../db/database.js';
import type { Companion } from '../config.js';
import type { PersonaVariant } from './questions.schema.js';
import type { SegmentKey } from './review.repository.js';

/** SQL for companion variants of review questions and the expert's pick per segment and companion. */

export async function listVariants(db: Database, videoId: string): Promise<PersonaVariant[]> {
  const rows = await db.all<{ id: number; question_id: number; companion: Companion; question: string; answer: string; provider: string; chosen: number }>(
    `SELECT v.id, v.question_id, v.companion, v.question, q.answer, v.provider,
            CASE WHEN EXISTS (SELECT 1 FROM persona_winners w WHERE w.variant_id = v.id) THEN 1 ELSE 0 END AS chosen
       FROM persona_variants v JOIN review_questions q ON q.id = v.question_id
      WHERE q.video_id = ? ORDER BY q.start_seconds, q.position, q.id, v.companion, v.id`,
    [videoId],
  );
  return rows.map((r) => ({ ...r, chosen: r.chosen === 1 }));
}

export async function insertVariant(db: Database, questionId: number, companion: Companion, question: string, provider: string): Promise<number> {
  const row = await db.first<{ id: number }>(
    'INSERT INTO persona_variants (question_id, companion, question, provider) VALUES (?, ?, ?, ?) RETURNING id',
    [questionId, companion, question, provider],
  );
  return Number(row!.id);
}

/** Drops a question's variants (its answer changed: they no longer fit). */
export async function deleteVariantsOf(db: Database, questionId: number): Promise<void> {
  await db.run('DELETE FROM persona_variants WHERE question_id = ?', [questionId]);
}

/** The companion of a variant when it belongs to a question of that segment of the video. */
export async function variantCompanion(db: Database, videoId: string, seg: SegmentKey, variantId: number): Promise<Companion | undefined> {
  const row = await db.first<{ companion: Companion }>(
    `SELECT v.companion FROM persona_variants v JOIN review_questions q ON q.id = v.question_id
      WHERE v.id = ? AND q.video_id = ? AND q.start_seconds = ? AND q.end_seconds = ?`,
    [variantId, videoId, seg.start, seg.end],
  );
  return row?.companion;
}

export async function chooseVariant(db: Database, videoId: string, seg: SegmentKey, companion: Companion, variantId: number, by: string | null): Promise<void> {
  await db.run(
    `INSERT INTO persona_winners (video_id, start_seconds, end_seconds, companion, variant_id, chosen_by) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (video_id, start_seconds, end_seconds, companion)
     DO UPDATE SET variant_id = excluded.variant_id, chosen_by = excluded.chosen_by, chosen_at = ?`,
    [videoId, seg.start, seg.end, companion, variantId, by, new Date().toISOString()],
  );
}

export async function clearChoice(db: Database, videoId: string, seg: SegmentKey, companion: Companion): Promise<void> {
  await db.run('DELETE FROM persona_winners WHERE video_id = ? AND start_seconds = ? AND end_seconds = ? AND companion = ?', [
    videoId, seg.start, seg.end, companion,
  ]);
}

