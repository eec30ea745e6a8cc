import type { z } from 'zod';
import type { Database } from '../db/database.js';
import { AppError, badRequest, notFound } from '../http/errors.js';
import type { Companion } from '../config.js';
import { COMPANIONS, type PersonaVariant, type ReviewQuestion } from './questions.schema.js';
import type { annotationsBody, saveFinalBody, updateQuestionsBody } from './review.schema.js';
import {
  countLiveQuestions,
  listReviewQuestions,
  listReviewSegments,
  markSegmentEdited,
  overlappingSegment,
  questionInVideo,
  replaceSegmentQuestions,
  segmentExists,
  setSegmentFinalized,
  updateQuestion,
  type SegmentKey,
} from './review.repository.js';
import { deleteVariantsOf, listVariants } from './variants.repository.js';
import { deleteAnnotation, listAnnotationRows, putAnnotation } from './annotations.repository.js';
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

export async function reviewState(db: Database, videoId: string): Promise<ReviewSegmentView[]> {
  const generated = new Map((await listGeneratedSegments(db, videoId)).map((g) => [segmentKey(g), g]));
  const review = new Map((await listReviewSegments(db, videoId)).map((r) => [segmentKey(r), r]));
  const questions = await listReviewQuestions(db, videoId);
  const variants = await listVariants(db, videoId);
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
export async function saveDraft(
  db: Database,
  videoId: string,
  segments: { segment_range_start: number; segment_range_end: number; questions: ReviewedQuestionInput[] }[],
  by: string,
): Promise<number> {
  await db.transaction(async (tx) => {
    for (const s of segments) await writeSegment(tx, videoId, { start: s.segment_range_start, end: s.segment_range_end }, s.questions, by);
  });
  return segments.length;
}

/** Optionally replaces segments' questions, then finalizes (or un-finalizes) them, in one transaction. */
export async function saveFinal(db: Database, videoId: string, segments: z.infer<typeof saveFinalBody>['segments'], by: string): Promise<number> {
  await db.transaction(async (tx) => {
    for (const s of segments) {
      const seg = { start: s.segment_range_start, end: s.segment_range_end };
      if (s.questions) await writeSegment(tx, videoId, seg, s.questions, by);
      else if (!(await segmentExists(tx, videoId, seg))) {
        throw notFound(`There is no segment ${seg.start}-${seg.end} s for this video.`, 'segment_not_found');
      }
      if (s.finalized && (await countLiveQuestions(tx, videoId, seg)) === 0) {
        throw badRequest(`Segment ${seg.start}-${seg.end} s has no question left to serve (all trashed or none).`, undefined, 'segment_empty');
      }
      await setSegmentFinalized(tx, videoId, seg, s.finalized, by);
    }
  });
  return segments.length;
}

/** Partial edits by question id; every id must belong to the video. */
export async function updateQuestions(
  db: Database,
  videoId: string,
  patches: z.infer<typeof updateQuestionsBody>['questions'],
  by: string,
): Promise<ReviewQuestion[]> {
  return db.transaction(async (tx) => {
    const byId = new Map((await listReviewQuestions(tx, videoId)).map((q) => [q.id, q]));
    for (const p of patches) {
      const cur = byId.get(p.id);
      if (!cur) throw badRequest(`Question ${p.id} is not a question of this video.`, undefined, 'unknown_question');
      const answer = p.answer ?? cur.answer;
      if (answer !== cur.answer) await deleteVariantsOf(tx, p.id);
      await updateQuestion(
        tx,
        p.id,
        {
          question_type: p.question_type ?? cur.question_type,
          question: p.question ?? cur.question,
          answer,
          expert_ranking: p.expert_ranking === undefined ? cur.expert_ranking : p.expert_ranking,
          trashed: p.trashed ?? cur.trashed,
        },
        by,
      );
      // the whole segment is now the expert's: a regeneration will not replace it
      await markSegmentEdited(tx, videoId, { start: cur.segment_range_start, end: cur.segment_range_end });
    }
    const after = new Map((await listReviewQuestions(tx, videoId)).map((q) => [q.id, q]));
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

export async function saveAnnotations(db: Database, videoId: string, items: z.infer<typeof annotationsBody>['annotations'], author: string): Promise<void> {
  await db.transaction(async (tx) => {
    for (const a of items) {
      if (a.question_id !== undefined && !(await questionInVideo(tx, videoId, a.question_id))) {
        throw badRequest(`Question ${a.question_id} is not a question of this video.`, undefined, 'unknown_question');
      }
      const key = { videoId, start: a.segment_range_start ?? -1, end: a.segment_range_end ?? -1, questionId: a.question_id ?? 0, author };
      if (a.note === '') await deleteAnnotation(tx, key);
      else await putAnnotation(tx, key, a.note);
    }
  });
}

export async function listAnnotations(db: Database, videoId: string): Promise<AnnotationView[]> {
  return (await listAnnotationRows(db, videoId)).map((r) => ({
    segment_range_start: r.start_seconds < 0 ? null : r.start_seconds,
    segment_range_end: r.end_seconds < 0 ? null : r.end_seconds,
    question_id: r.question_id === 0 ? null : r.question_id,
    author: r.author,
    note: r.note,
    updated_at: r.updated_at,
  }));
}

/** A new segment must not overlap an existing one (the child would be stopped twice). */
export async function assertSegmentFits(db: Database, videoId: string, seg: SegmentKey): Promise<void> {
  if (await segmentExists(db, videoId, seg)) return;
  const clash = await overlappingSegment(db, videoId, seg);
  if (clash) {
    throw new AppError(400, 'segment_overlap', `Segment ${seg.start}-${seg.end} s overlaps the existing segment ${clash.start}-${clash.end} s.`);
  }
}

async function writeSegment(db: Database, videoId: string, seg: SegmentKey, questions: ReviewedQuestionInput[], by: string): Promise<void> {
  await assertSegmentFits(db, videoId, seg);
  for (const q of questions) {
    if (q.id === undefined) continue;
    if (!(await questionInVideo(db, videoId, q.id, seg))) {
      throw badRequest(`Question ${q.id} does not belong to segment ${seg.start}-${seg.end} s of this video.`, undefined, 'unknown_question');
    }
  }
  await replaceSegmentQuestions(db, videoId, seg, questions, by);
}
