import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { AppError, badRequest, notFound } from '../http/errors.js';
import type { Companion } from '../config.js';
import { COMPANIONS, type PersonaVariant, type ReviewQuestion } from './questions.schema.js';
import type { annotationsBody, saveFinalBody, updateQuestionsBody } from './review.schema.js';
import {
  listReviewQuestions,
  listReviewSegments,
  listVariants,
  replaceSegmentQuestions,
  setSegmentFinalized,
  type SegmentKey,
} from './review.repository.js';
import { listGeneratedSegments, segmentKey } from './segments.repository.js';
import type { ReviewedQuestionInput } from './questions.schema.js';

/** The expert's view of a video: every segment with its AI result, review set, variants and picks. */
export interface ReviewSegmentView {
  segment_range_start: number;
  segment_range_end: number;
  finalized: boolean;
  generated:
    | { status: 'ok'; provider: string; model: string | null; generated_at: string; question_count: number }
    | { status: 'error'; provider: string; model: string | null; generated_at: string; error: { code: string; message: string } }
    | null;
  questions: (ReviewQuestion & { variants: PersonaVariant[] })[];
  /** variant id picked per companion (null: none) */
  chosen: Record<Companion, number | null>;
}

export function reviewState(db: Db, videoId: string): ReviewSegmentView[] {
  const generated = new Map(listGeneratedSegments(db, videoId).map((g) => [segmentKey(g), g]));
  const review = new Map(listReviewSegments(db, videoId).map((r) => [segmentKey(r), r]));
  const questions = listReviewQuestions(db, videoId);
  const variants = listVariants(db, videoId);
  const keys = [...new Set([...generated.keys(), ...review.keys()])];
  const segs = keys
    .map((k) => generated.get(k) ?? review.get(k)!)
    .map((s) => ({ start: s.start, end: s.end }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  return segs.map((seg) => {
    const k = segmentKey(seg);
    const g = generated.get(k);
    const qs = questions
      .filter((q) => q.segment_range_start === seg.start && q.segment_range_end === seg.end)
      .map((q) => ({ ...q, variants: variants.filter((v) => v.question_id === q.id) }));
    const chosen = Object.fromEntries(
      COMPANIONS.map((c) => [c, qs.flatMap((q) => q.variants).find((v) => v.companion === c && v.chosen)?.id ?? null]),
    ) as Record<Companion, number | null>;
    return {
      segment_range_start: seg.start,
      segment_range_end: seg.end,
      finalized: review.get(k)?.finalized ?? false,
      generated: !g
        ? null
        : g.status === 'ok'
          ? { status: 'ok', provider: g.provider, model: g.model, generated_at: g.generatedAt, question_count: g.result.questions.length }
          : { status: 'error', provider: g.provider, model: g.model, generated_at: g.generatedAt, error: { code: g.error.code, message: g.error.message } },
      questions: qs,
      chosen,
    };
  });
}

/** Saves the expert's version of some segments (draft: finalization is left as it was). */
export function saveDraft(db: Db, videoId: string, segments: { segment_range_start: number; segment_range_end: number; questions: ReviewedQuestionInput[] }[], by: string): number {
  db.transactionSync(() => {
    for (const s of segments) writeSegment(db, videoId, { start: s.segment_range_start, end: s.segment_range_end }, s.questions, by);
  });
  return segments.length;
}

/** Optionally replaces segments' questions, then finalizes (or un-finalizes) them, in one transaction. */
export function saveFinal(db: Db, videoId: string, segments: z.infer<typeof saveFinalBody>['segments'], by: string): number {
  db.transactionSync(() => {
    for (const s of segments) {
      const seg = { start: s.segment_range_start, end: s.segment_range_end };
      if (s.questions) writeSegment(db, videoId, seg, s.questions, by);
      else if (!segmentExists(db, videoId, seg)) {
        throw notFound(`There is no segment ${seg.start}-${seg.end} s for this video.`, 'segment_not_found');
      }
      if (s.finalized) {
        const live = db.firstSync<{ n: number }>(
          'SELECT COUNT(*) AS n FROM review_questions WHERE video_id = ? AND start_seconds = ? AND end_seconds = ? AND trashed = 0',
          [videoId, seg.start, seg.end],
        )!.n;
        if (live === 0) throw badRequest(`Segment ${seg.start}-${seg.end} s has no question left to serve (all trashed or none).`, undefined, 'segment_empty');
      }
      setSegmentFinalized(db, videoId, seg, s.finalized, by);
    }
  });
  return segments.length;
}

/** Partial edits by question id; every id must belong to the video. */
export function updateQuestions(db: Db, videoId: string, patches: z.infer<typeof updateQuestionsBody>['questions'], by: string): ReviewQuestion[] {
  return db.transactionSync(() => {
    const byId = new Map(listReviewQuestions(db, videoId).map((q) => [q.id, q]));
    for (const p of patches) {
      const cur = byId.get(p.id);
      if (!cur) throw badRequest(`Question ${p.id} is not a question of this video.`, undefined, 'unknown_question');
      const answer = p.answer ?? cur.answer;
      if (answer !== cur.answer) db.runSync('DELETE FROM persona_variants WHERE question_id = ?', [p.id]);
      db.runSync(
        `UPDATE review_questions SET question_type = ?, question = ?, answer = ?, expert_ranking = ?, trashed = ?, edited = 1,
                updated_by = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?`,
        [
          p.question_type ?? cur.question_type,
          p.question ?? cur.question,
          answer,
          p.expert_ranking === undefined ? cur.expert_ranking : p.expert_ranking,
          (p.trashed ?? cur.trashed) ? 1 : 0,
          by,
          p.id,
        ],
      );
      // the whole segment is now the expert's: a regeneration will not replace it
      db.runSync('UPDATE review_questions SET edited = 1 WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?', [
        videoId, cur.segment_range_start, cur.segment_range_end,
      ]);
    }
    const after = new Map(listReviewQuestions(db, videoId).map((q) => [q.id, q]));
    return patches.map((p) => after.get(p.id)!);
  });
}

export interface AnnotationView {
  segment_range_start: number | null;
  segment_range_end: number | null;
  question_id: number | null;
  author: string;
  note: string;
  updated_at: string;
}

export function saveAnnotations(db: Db, videoId: string, items: z.infer<typeof annotationsBody>['annotations'], author: string): void {
  db.transactionSync(() => {
    for (const a of items) {
      if (a.question_id !== undefined) {
        const q = db.firstSync('SELECT 1 FROM review_questions WHERE id = ? AND video_id = ?', [a.question_id, videoId]);
        if (!q) throw badRequest(`Question ${a.question_id} is not a question of this video.`, undefined, 'unknown_question');
      }
      const key = [videoId, a.segment_range_start ?? -1, a.segment_range_end ?? -1, a.question_id ?? 0, author];
      if (a.note === '') {
        db.runSync('DELETE FROM expert_annotations WHERE video_id = ? AND start_seconds = ? AND end_seconds = ? AND question_id = ? AND author = ?', key);
      } else {
        db.runSync(
          `INSERT INTO expert_annotations (video_id, start_seconds, end_seconds, question_id, author, note) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (video_id, start_seconds, end_seconds, question_id, author)
           DO UPDATE SET note = excluded.note, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
          [...key, a.note],
        );
      }
    }
  });
}

export function listAnnotations(db: Db, videoId: string): AnnotationView[] {
  return db
    .allSync<{ start_seconds: number; end_seconds: number; question_id: number; author: string; note: string; updated_at: string }>(
      `SELECT start_seconds, end_seconds, question_id, author, note, updated_at FROM expert_annotations
        WHERE video_id = ? ORDER BY start_seconds, end_seconds, question_id, author`,
      [videoId],
    )
    .map((r) => ({
      segment_range_start: r.start_seconds < 0 ? null : r.start_seconds,
      segment_range_end: r.end_seconds < 0 ? null : r.end_seconds,
      question_id: r.question_id === 0 ? null : r.question_id,
      author: r.author,
      note: r.note,
      updated_at: r.updated_at,
    }));
}

export function segmentExists(db: Db, videoId: string, seg: SegmentKey): boolean {
  const args = [videoId, seg.start, seg.end];
  return (
    db.firstSync('SELECT 1 FROM review_segments WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?', args) !== undefined ||
    db.firstSync('SELECT 1 FROM question_segments WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?', args) !== undefined
  );
}

/** A new segment must not overlap an existing one (the child would be stopped twice). */
export function assertSegmentFits(db: Db, videoId: string, seg: SegmentKey): void {
  if (segmentExists(db, videoId, seg)) return;
  const clash = db.firstSync<{ s: number; e: number }>(
    `SELECT start_seconds AS s, end_seconds AS e FROM review_segments WHERE video_id = ? AND start_seconds < ? AND ? < end_seconds
     UNION SELECT start_seconds, end_seconds FROM question_segments WHERE video_id = ? AND start_seconds < ? AND ? < end_seconds LIMIT 1`,
    [videoId, seg.end, seg.start, videoId, seg.end, seg.start],
  );
  if (clash) {
    throw new AppError(400, 'segment_overlap', `Segment ${seg.start}-${seg.end} s overlaps the existing segment ${clash.s}-${clash.e} s.`);
  }
}

function writeSegment(db: Db, videoId: string, seg: SegmentKey, questions: ReviewedQuestionInput[], by: string): void {
  assertSegmentFits(db, videoId, seg);
  for (const q of questions) {
    if (q.id === undefined) continue;
    const own = db.firstSync('SELECT 1 FROM review_questions WHERE id = ? AND video_id = ? AND start_seconds = ? AND end_seconds = ?', [
      q.id, videoId, seg.start, seg.end,
    ]);
    if (!own) throw badRequest(`Question ${q.id} does not belong to segment ${seg.start}-${seg.end} s of this video.`, undefined, 'unknown_question');
  }
  replaceSegmentQuestions(db, videoId, seg, questions, by);
}
