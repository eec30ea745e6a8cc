import type { Database } from '../db/database.js';
import type {
  GeneratedSegment,
  QuestionOrigin,
  QuestionType,
  ReviewQuestion,
  ReviewedQuestionInput,
} from './questions.schema.js';
import { deleteVariantsOf } from './variants.repository.js';

/** SQL for the review set: segments and their questions (variants: variants.repository.ts). */

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

const now = (): string => new Date().toISOString();
const QUESTION_COLUMNS = `id, start_seconds, end_seconds, question_type, question, answer, llm_ranking, expert_ranking,
              trashed, origin, provider`;

/** What the questions feature reads of a video row (null: no such video). */
export async function videoForQuestions(
  db: Database,
  videoId: string,
): Promise<{ title: string; duration_seconds: number; subtitle_file: string | null } | undefined> {
  return db.first('SELECT title, duration_seconds, subtitle_file FROM videos WHERE id = ?', [videoId]);
}

export async function listReviewSegments(db: Database, videoId: string): Promise<ReviewSegmentRow[]> {
  const rows = await db.all<{ start_seconds: number; end_seconds: number; finalized: number; finalized_at: string | null; finalized_by: string | null }>(
    `SELECT start_seconds, end_seconds, finalized, finalized_at, finalized_by FROM review_segments
      WHERE video_id = ? ORDER BY start_seconds, end_seconds`,
    [videoId],
  );
  return rows.map((r) => ({
    start: r.start_seconds,
    end: r.end_seconds,
    finalized: r.finalized === 1,
    finalizedAt: r.finalized_at,
    finalizedBy: r.finalized_by,
  }));
}

export async function listReviewQuestions(db: Database, videoId: string): Promise<ReviewQuestion[]> {
  const rows = await db.all<QuestionRow>(
    `SELECT ${QUESTION_COLUMNS}
       FROM review_questions WHERE video_id = ? ORDER BY start_seconds, end_seconds, position, id`,
    [videoId],
  );
  return rows.map(toQuestion);
}

export async function getReviewQuestion(db: Database, videoId: string, id: number): Promise<ReviewQuestion | undefined> {
  const row = await db.first<QuestionRow>(`SELECT ${QUESTION_COLUMNS} FROM review_questions WHERE video_id = ? AND id = ?`, [videoId, id]);
  return row && toQuestion(row);
}

/** True when question `id` is one of the video's (and of segment `seg`, when given). */
export async function questionInVideo(db: Database, videoId: string, id: number, seg?: SegmentKey): Promise<boolean> {
  const row = seg
    ? await db.first('SELECT 1 AS found FROM review_questions WHERE id = ? AND video_id = ? AND start_seconds = ? AND end_seconds = ?', [
        id, videoId, seg.start, seg.end,
      ])
    : await db.first('SELECT 1 AS found FROM review_questions WHERE id = ? AND video_id = ?', [id, videoId]);
  return row !== undefined;
}

/** Creates the segment's review row when missing (not finalized). */
export async function ensureReviewSegment(db: Database, videoId: string, seg: SegmentKey): Promise<void> {
  await db.run(
    `INSERT INTO review_segments (video_id, start_seconds, end_seconds) VALUES (?, ?, ?)
     ON CONFLICT DO NOTHING`,
    [videoId, seg.start, seg.end],
  );
}

export async function reviewSegmentExists(db: Database, videoId: string, seg: SegmentKey): Promise<boolean> {
  const row = await db.first('SELECT 1 AS found FROM review_segments WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?', [
    videoId, seg.start, seg.end,
  ]);
  return row !== undefined;
}

/** A segment is known when it has a review row or an AI result. */
export async function segmentExists(db: Database, videoId: string, seg: SegmentKey): Promise<boolean> {
  if (await reviewSegmentExists(db, videoId, seg)) return true;
  const row = await db.first('SELECT 1 AS found FROM question_segments WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?', [
    videoId, seg.start, seg.end,
  ]);
  return row !== undefined;
}

/** Some known segment of the video that overlaps `seg` (without being it), or undefined. */
export async function overlappingSegment(db: Database, videoId: string, seg: SegmentKey): Promise<SegmentKey | undefined> {
  const row = await db.first<{ s: number; e: number }>(
    `SELECT start_seconds AS s, end_seconds AS e FROM review_segments WHERE video_id = ? AND start_seconds < ? AND ? < end_seconds
     UNION SELECT start_seconds, end_seconds FROM question_segments WHERE video_id = ? AND start_seconds < ? AND ? < end_seconds
     ORDER BY s, e LIMIT 1`,
    [videoId, seg.end, seg.start, videoId, seg.end, seg.start],
  );
  return row && { start: row.s, end: row.e };
}

export async function setSegmentFinalized(db: Database, videoId: string, seg: SegmentKey, finalized: boolean, by: string): Promise<void> {
  await ensureReviewSegment(db, videoId, seg);
  const at = now();
  await db.run(
    `UPDATE review_segments SET finalized = ?, finalized_at = ?, finalized_by = ?, updated_at = ?
      WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?`,
    [finalized ? 1 : 0, finalized ? at : null, finalized ? by : null, at, videoId, seg.start, seg.end],
  );
}

/** Questions of the segment a child could still be served (not trashed). */
export async function countLiveQuestions(db: Database, videoId: string, seg: SegmentKey): Promise<number> {
  const row = await db.first<{ n: number }>(
    'SELECT COUNT(*) AS n FROM review_questions WHERE video_id = ? AND start_seconds = ? AND end_seconds = ? AND trashed = 0',
    [videoId, seg.start, seg.end],
  );
  return Number(row?.n ?? 0);
}

/** True when an expert changed the segment's set or finalized it: regeneration leaves it alone. */
export async function segmentHasExpertWork(db: Database, videoId: string, seg: SegmentKey): Promise<boolean> {
  const row = await db.first(
    `SELECT 1 AS found FROM review_segments s WHERE s.video_id = ? AND s.start_seconds = ? AND s.end_seconds = ? AND (
       s.finalized = 1 OR EXISTS (SELECT 1 FROM review_questions q WHERE q.video_id = s.video_id
         AND q.start_seconds = s.start_seconds AND q.end_seconds = s.end_seconds AND q.edited = 1))`,
    [videoId, seg.start, seg.end],
  );
  return row !== undefined;
}

/** Replaces an untouched segment's review set with a fresh AI result (call inside a transaction). */
export async function seedFromGenerated(db: Database, videoId: string, result: GeneratedSegment, origin: QuestionOrigin = 'generated'): Promise<boolean> {
  const seg = { start: result.segment_range_start, end: result.segment_range_end };
  if (await segmentHasExpertWork(db, videoId, seg)) return false;
  await ensureReviewSegment(db, videoId, seg);
  await db.run('DELETE FROM review_questions WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?', [videoId, seg.start, seg.end]);
  for (const [i, q] of result.questions.entries()) {
    await insertQuestion(db, videoId, seg, { ...q, id: undefined, expert_ranking: null, trashed: false }, {
      origin,
      provider: result.provider,
      edited: false,
      by: null,
      position: i,
    });
  }
  return true;
}

export interface WriteOptions {
  origin: QuestionOrigin;
  provider: string | null;
  edited: boolean;
  by: string | null;
  position: number;
}

export async function insertQuestion(db: Database, videoId: string, seg: SegmentKey, q: ReviewedQuestionInput, o: WriteOptions): Promise<number> {
  const row = await db.first<{ id: number }>(
    `INSERT INTO review_questions (video_id, start_seconds, end_seconds, question_type, question, answer,
       llm_ranking, expert_ranking, trashed, origin, provider, edited, position, updated_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      videoId, seg.start, seg.end, q.question_type, q.question, q.answer, q.llm_ranking, q.expert_ranking,
      q.trashed ? 1 : 0, o.origin, o.provider, o.edited ? 1 : 0, o.position, o.by,
    ],
  );
  return Number(row!.id);
}

/** The fields an expert's edit by question id writes (AI rank and position stay). */
export interface QuestionEdit {
  question_type: QuestionType;
  question: string;
  answer: string;
  expert_ranking: number | null;
  trashed: boolean;
}

/** Writes an expert's edit of one question (marked edited). */
export async function updateQuestion(db: Database, id: number, q: QuestionEdit, by: string): Promise<void> {
  await db.run(
    `UPDATE review_questions SET question_type = ?, question = ?, answer = ?, expert_ranking = ?, trashed = ?, edited = 1,
            updated_by = ?, updated_at = ? WHERE id = ?`,
    [q.question_type, q.question, q.answer, q.expert_ranking, q.trashed ? 1 : 0, by, now(), id],
  );
}

/** Replaces a question's wording and answer with a regenerated one. */
export async function setRegenerated(
  db: Database,
  id: number,
  fresh: { question_type: QuestionType; question: string; answer: string },
  provider: string,
  by: string,
): Promise<void> {
  await db.run(
    `UPDATE review_questions SET question_type = ?, question = ?, answer = ?, origin = 'regenerated', provider = ?, edited = 1,
            updated_by = ?, updated_at = ? WHERE id = ?`,
    [fresh.question_type, fresh.question, fresh.answer, provider, by, now(), id],
  );
}

/** Marks the whole set of a segment as the expert's, so a regeneration keeps it. */
export async function markSegmentEdited(db: Database, videoId: string, seg: SegmentKey): Promise<void> {
  await db.run('UPDATE review_questions SET edited = 1 WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?', [videoId, seg.start, seg.end]);
}

/**
 * Writes an expert's version of a segment's set: questions with a known id of this segment are
 * updated in place (their companion variants stay attached unless the wording of the base
 * question changed its answer), new ones are inserted, and questions left out are deleted.
 * Call inside a transaction.
 */
export async function replaceSegmentQuestions(db: Database, videoId: string, seg: SegmentKey, questions: ReviewedQuestionInput[], by: string): Promise<number[]> {
  await ensureReviewSegment(db, videoId, seg);
  const rows = await db.all<{ id: number; answer: string }>(
    'SELECT id, answer FROM review_questions WHERE video_id = ? AND start_seconds = ? AND end_seconds = ? ORDER BY id',
    [videoId, seg.start, seg.end],
  );
  const existing = new Map(rows.map((r) => [r.id, r.answer]));
  const kept: number[] = [];
  for (const [position, q] of questions.entries()) {
    if (q.id !== undefined && existing.has(q.id)) {
      // A variant must keep the base answer: when the answer changes, old variants are dropped.
      if (existing.get(q.id) !== q.answer) await deleteVariantsOf(db, q.id);
      await db.run(
        `UPDATE review_questions SET question_type = ?, question = ?, answer = ?, llm_ranking = ?, expert_ranking = ?,
                trashed = ?, edited = 1, position = ?, updated_by = ?, updated_at = ?
          WHERE id = ?`,
        [q.question_type, q.question, q.answer, q.llm_ranking, q.expert_ranking, q.trashed ? 1 : 0, position, by, now(), q.id],
      );
      kept.push(q.id);
    } else {
      kept.push(await insertQuestion(db, videoId, seg, q, { origin: 'expert', provider: null, edited: true, by, position }));
    }
  }
  for (const id of existing.keys()) if (!kept.includes(id)) await db.run('DELETE FROM review_questions WHERE id = ?', [id]);
  // Mark the whole set as the expert's, even when nothing changed, so regeneration keeps it.
  await markSegmentEdited(db, videoId, seg);
  return kept;
}

/** Deletes every AI result, review set (with its variants and picks) and annotation of a video. */
export async function clearVideoQuestions(db: Database, videoId: string): Promise<void> {
  await db.run('DELETE FROM question_segments WHERE video_id = ?', [videoId]);
  await db.run('DELETE FROM review_segments WHERE video_id = ?', [videoId]);
  await db.run('DELETE FROM expert_annotations WHERE video_id = ?', [videoId]);
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
