import type { Db } from '../db/database.js';
import type { Companion } from '../config.js';
import type {
  GeneratedSegment,
  PersonaVariant,
  QuestionOrigin,
  QuestionType,
  ReviewQuestion,
  ReviewedQuestionInput,
} from './questions.schema.js';

/** SQL for the review set: segments, their questions, companion variants and picks. */

export interface SegmentKey {
  start: number;
  end: number;
}

export interface ReviewSegmentRow {
  start: number;
  end: number;
  finalized: boolean;
  finalizedAt: string | null;
  finalizedBy: string | null;
}

export interface QuestionRow {
  id: number;
  start_seconds: number;
  end_seconds: number;
  question_type: QuestionType;
  question: string;
  answer: string;
  llm_ranking: number | null;
  expert_ranking: number | null;
  trashed: number;
  origin: QuestionOrigin;
  provider: string | null;
}

export function listReviewSegments(db: Db, videoId: string): ReviewSegmentRow[] {
  return db
    .allSync<{ start_seconds: number; end_seconds: number; finalized: number; finalized_at: string | null; finalized_by: string | null }>(
      `SELECT start_seconds, end_seconds, finalized, finalized_at, finalized_by FROM review_segments
        WHERE video_id = ? ORDER BY start_seconds, end_seconds`,
      [videoId],
    )
    .map((r) => ({
      start: r.start_seconds,
      end: r.end_seconds,
      finalized: r.finalized === 1,
      finalizedAt: r.finalized_at,
      finalizedBy: r.finalized_by,
    }));
}

export function listReviewQuestions(db: Db, videoId: string): ReviewQuestion[] {
  return db
    .allSync<QuestionRow>(
      `SELECT id, start_seconds, end_seconds, question_type, question, answer, llm_ranking, expert_ranking,
              trashed, origin, provider
         FROM review_questions WHERE video_id = ? ORDER BY start_seconds, end_seconds, position, id`,
      [videoId],
    )
    .map(toQuestion);
}

export function getReviewQuestion(db: Db, videoId: string, id: number): ReviewQuestion | undefined {
  const row = db.firstSync<QuestionRow>(
    `SELECT id, start_seconds, end_seconds, question_type, question, answer, llm_ranking, expert_ranking,
            trashed, origin, provider
       FROM review_questions WHERE video_id = ? AND id = ?`,
    [videoId, id],
  );
  return row && toQuestion(row);
}

export function listVariants(db: Db, videoId: string): PersonaVariant[] {
  return db
    .allSync<{ id: number; question_id: number; companion: Companion; question: string; answer: string; provider: string; chosen: number }>(
      `SELECT v.id, v.question_id, v.companion, v.question, q.answer, v.provider,
              EXISTS (SELECT 1 FROM persona_winners w WHERE w.variant_id = v.id) AS chosen
         FROM persona_variants v JOIN review_questions q ON q.id = v.question_id
        WHERE q.video_id = ? ORDER BY q.start_seconds, q.position, q.id, v.companion, v.id`,
      [videoId],
    )
    .map((r) => ({ ...r, chosen: r.chosen === 1 }));
}

/** Creates the segment's review row when missing (not finalized). */
export function ensureReviewSegment(db: Db, videoId: string, seg: SegmentKey): void {
  db.runSync(
    `INSERT INTO review_segments (video_id, start_seconds, end_seconds) VALUES (?, ?, ?)
     ON CONFLICT DO NOTHING`,
    [videoId, seg.start, seg.end],
  );
}

export function setSegmentFinalized(db: Db, videoId: string, seg: SegmentKey, finalized: boolean, by: string): void {
  ensureReviewSegment(db, videoId, seg);
  db.runSync(
    `UPDATE review_segments SET finalized = ?, finalized_at = CASE WHEN ? THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') END,
            finalized_by = CASE WHEN ? THEN ? END, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
      WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?`,
    [finalized ? 1 : 0, finalized ? 1 : 0, finalized ? 1 : 0, by, videoId, seg.start, seg.end],
  );
}

/** True when an expert changed the segment's set or finalized it: regeneration leaves it alone. */
export function segmentHasExpertWork(db: Db, videoId: string, seg: SegmentKey): boolean {
  return (
    db.firstSync(
      `SELECT 1 FROM review_segments s WHERE s.video_id = ? AND s.start_seconds = ? AND s.end_seconds = ? AND (
         s.finalized = 1 OR EXISTS (SELECT 1 FROM review_questions q WHERE q.video_id = s.video_id
           AND q.start_seconds = s.start_seconds AND q.end_seconds = s.end_seconds AND q.edited = 1))`,
      [videoId, seg.start, seg.end],
    ) !== undefined
  );
}

/** Replaces an untouched segment's review set with a fresh AI result. */
export function seedFromGenerated(db: Db, videoId: string, result: GeneratedSegment, origin: QuestionOrigin = 'generated'): boolean {
  const seg = { start: result.segment_range_start, end: result.segment_range_end };
  if (segmentHasExpertWork(db, videoId, seg)) return false;
  ensureReviewSegment(db, videoId, seg);
  db.runSync('DELETE FROM review_questions WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?', [videoId, seg.start, seg.end]);
  result.questions.forEach((q, i) =>
    insertQuestion(db, videoId, seg, { ...q, id: undefined, expert_ranking: null, trashed: false }, {
      origin,
      provider: result.provider,
      edited: false,
      by: null,
      position: i,
    }),
  );
  return true;
}

export interface WriteOptions {
  origin: QuestionOrigin;
  provider: string | null;
  edited: boolean;
  by: string | null;
  position: number;
}

export function insertQuestion(db: Db, videoId: string, seg: SegmentKey, q: ReviewedQuestionInput, o: WriteOptions): number {
  const r = db.runSync(
    `INSERT INTO review_questions (video_id, start_seconds, end_seconds, question_type, question, answer,
       llm_ranking, expert_ranking, trashed, origin, provider, edited, position, updated_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      videoId, seg.start, seg.end, q.question_type, q.question, q.answer, q.llm_ranking, q.expert_ranking,
      q.trashed ? 1 : 0, o.origin, o.provider, o.edited ? 1 : 0, o.position, o.by,
    ],
  );
  return Number(r.lastInsertRowid);
}

/**
 * Writes an expert's version of a segment's set: questions with a known id of this segment are
 * updated in place (their companion variants stay attached unless the wording of the base
 * question changed its answer), new ones are inserted, and questions left out are deleted.
 */
export function replaceSegmentQuestions(db: Db, videoId: string, seg: SegmentKey, questions: ReviewedQuestionInput[], by: string): number[] {
  ensureReviewSegment(db, videoId, seg);
  const existing = new Map(
    db
      .allSync<{ id: number; answer: string }>(
        'SELECT id, answer FROM review_questions WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?',
        [videoId, seg.start, seg.end],
      )
      .map((r) => [r.id, r.answer]),
  );
  const kept: number[] = [];
  questions.forEach((q, position) => {
    if (q.id !== undefined && existing.has(q.id)) {
      // A variant must keep the base answer: when the answer changes, old variants are dropped.
      if (existing.get(q.id) !== q.answer) db.runSync('DELETE FROM persona_variants WHERE question_id = ?', [q.id]);
      db.runSync(
        `UPDATE review_questions SET question_type = ?, question = ?, answer = ?, llm_ranking = ?, expert_ranking = ?,
                trashed = ?, edited = 1, position = ?, updated_by = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
          WHERE id = ?`,
        [q.question_type, q.question, q.answer, q.llm_ranking, q.expert_ranking, q.trashed ? 1 : 0, position, by, q.id],
      );
      kept.push(q.id);
    } else {
      kept.push(insertQuestion(db, videoId, seg, q, { origin: 'expert', provider: null, edited: true, by, position }));
    }
  });
  for (const id of existing.keys()) if (!kept.includes(id)) db.runSync('DELETE FROM review_questions WHERE id = ?', [id]);
  // Mark the whole set as the expert's, even when nothing changed, so regeneration keeps it.
  db.runSync('UPDATE review_questions SET edited = 1 WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?', [videoId, seg.start, seg.end]);
  return kept;
}

export function insertVariant(db: Db, questionId: number, companion: Companion, question: string, provider: string): number {
  const r = db.runSync('INSERT INTO persona_variants (question_id, companion, question, provider) VALUES (?, ?, ?, ?)', [
    questionId, companion, question, provider,
  ]);
  return Number(r.lastInsertRowid);
}

export function chooseVariant(db: Db, videoId: string, seg: SegmentKey, companion: Companion, variantId: number, by: string | null): void {
  db.runSync(
    `INSERT INTO persona_winners (video_id, start_seconds, end_seconds, companion, variant_id, chosen_by) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (video_id, start_seconds, end_seconds, companion)
     DO UPDATE SET variant_id = excluded.variant_id, chosen_by = excluded.chosen_by,
                   chosen_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    [videoId, seg.start, seg.end, companion, variantId, by],
  );
}

export function clearChoice(db: Db, videoId: string, seg: SegmentKey, companion: Companion): void {
  db.runSync('DELETE FROM persona_winners WHERE video_id = ? AND start_seconds = ? AND end_seconds = ? AND companion = ?', [
    videoId, seg.start, seg.end, companion,
  ]);
}

function toQuestion(r: QuestionRow): ReviewQuestion {
  return {
    id: r.id,
    segment_range_start: r.start_seconds,
    segment_range_end: r.end_seconds,
    question_type: r.question_type,
    question: r.question,
    answer: r.answer,
    llm_ranking: r.llm_ranking,
    expert_ranking: r.expert_ranking,
    trashed: r.trashed === 1,
    origin: r.origin,
    provider: r.provider,
  };
}
