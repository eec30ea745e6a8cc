import { z } from 'zod';
import type { Database } from '../db/database.js';
import { badRequest, notFound } from '../http/errors.js';
import { videoIdSchema } from '../http/ids.js';
import { companionSchema, questionTextSchema, reviewedQuestionSchema, segmentRangeSchema } from './questions.schema.js';
import { writeQuestionExport } from './export.js';
import type { MediaStore } from '../storage/media-store.js';
import { LocalMediaStore } from '../storage/local.store.js';
import { clearVideoQuestions, ensureReviewSegment, insertQuestion, setSegmentFinalized, videoForQuestions } from './review.repository.js';
import { chooseVariant, insertVariant } from './variants.repository.js';

/**
 * Import of a video's reviewed questions (used for the bundled sample). The payload format is
 * documented in docs/questions.md. Variants carry only the companion's wording: their answer is
 * always the question's own.
 */
export const importVariantSchema = z.object({
  companion: companionSchema,
  question: questionTextSchema,
  /** the expert's pick for this segment and companion (at most one per segment and companion) */
  chosen: z.boolean().default(false),
});

export const importQuestionSchema = reviewedQuestionSchema.omit({ id: true }).extend({
  variants: z.array(importVariantSchema).max(30).default([]),
});

export const importSegmentSchema = segmentRangeSchema.and(
  z.object({
    finalized: z.boolean().default(true),
    questions: z.array(importQuestionSchema).min(1, 'a segment needs at least one question').max(50),
  }),
);

export const reviewedQuestionsImportSchema = z
  .object({
    /** when present, must equal the video the import is for */
    video_id: videoIdSchema.optional(),
    /** who produced the questions originally (shown as each question's provider) */
    provider: z.string().trim().min(1).max(40).default('imported'),
    segments: z.array(importSegmentSchema).min(1).max(2000),
  })
  .superRefine((p, ctx) => {
    const sorted = [...p.segments].sort((a, b) => a.segment_range_start - b.segment_range_start);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]!.segment_range_start < sorted[i - 1]!.segment_range_end) {
        ctx.addIssue({ code: 'custom', message: `segments overlap at ${sorted[i]!.segment_range_start}s`, path: ['segments'] });
      }
    }
    p.segments.forEach((s, si) => {
      for (const companion of companionSchema.options) {
        const chosen = s.questions.flatMap((q) => q.variants).filter((v) => v.companion === companion && v.chosen);
        if (chosen.length > 1) {
          ctx.addIssue({ code: 'custom', message: `more than one chosen ${companion} variant`, path: ['segments', si] });
        }
      }
    });
  });

export type ReviewedQuestionsImport = z.input<typeof reviewedQuestionsImportSchema>;

export interface ImportSummary {
  video_id: string;
  segments: number;
  questions: number;
  variants: number;
  file_path: string | null;
}

/**
 * Replaces a video's questions with a reviewed set, in one transaction: AI results, review sets,
 * variants, picks and annotations of that video are deleted first, so importing twice gives the
 * same state. With `store` (or `dataDir`, meaning the local store there), the JSON export is
 * rewritten too.
 */
export async function importReviewedQuestions(db: Database, videoId: string, payload: unknown, opts: { store?: MediaStore; dataDir?: string } = {}): Promise<ImportSummary> {
  videoIdSchema.parse(videoId);
  const parsed = reviewedQuestionsImportSchema.safeParse(payload);
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ');
    throw badRequest(`Invalid reviewed questions: ${msg}`, undefined, 'invalid_questions');
  }
  const p = parsed.data;
  if (p.video_id !== undefined && p.video_id !== videoId) throw badRequest(`The payload is for video ${p.video_id}, not ${videoId}.`);

  const summary: ImportSummary = { video_id: videoId, segments: 0, questions: 0, variants: 0, file_path: null };
  await db.transaction(async (tx) => {
    if (!(await videoForQuestions(tx, videoId))) throw notFound(`Video ${videoId} was not found.`, 'video_not_found');
    await clearVideoQuestions(tx, videoId);
    for (const s of p.segments) {
      const seg = { start: s.segment_range_start, end: s.segment_range_end };
      await ensureReviewSegment(tx, videoId, seg);
      for (const [position, q] of s.questions.entries()) {
        const qid = await insertQuestion(tx, videoId, seg, q, { origin: 'imported', provider: p.provider, edited: true, by: 'import', position });
        summary.questions++;
        for (const v of q.variants) {
          const vid = await insertVariant(tx, qid, v.companion, v.question, p.provider);
          summary.variants++;
          if (v.chosen) await chooseVariant(tx, videoId, seg, v.companion, vid, 'import');
        }
      }
      if (s.finalized) await setSegmentFinalized(tx, videoId, seg, true, 'import');
      summary.segments++;
    }
  });
  const store = opts.store ?? (opts.dataDir ? new LocalMediaStore(opts.dataDir) : null);
  if (store) summary.file_path = (await writeQuestionExport(db, store, videoId)).file_path;
  return summary;
}
