import { z } from 'zod';
import { videoIdSchema } from '../http/ids.js';
import { PROVIDER_NAMES } from '../ai/types.js';
import {
  answerTextSchema,
  companionSchema,
  questionTextSchema,
  questionTypeSchema,
  reviewedQuestionSchema,
  segmentRangeSchema,
} from './questions.schema.js';

/** Request bodies of the review routes (one schema per endpoint). */

export const videoParams = z.object({ video_id: videoIdSchema });
const questionId = z.number().int().positive();

const questionList = z
  .array(reviewedQuestionSchema)
  .max(50)
  .refine(
    (qs) => {
      const ids = qs.flatMap((q) => (q.id === undefined ? [] : [q.id]));
      return new Set(ids).size === ids.length;
    },
    { message: 'a question id appears twice' },
  );

const segmentWithQuestions = segmentRangeSchema.and(z.object({ questions: questionList }));

/** POST /api/expert-questions: save the expert's draft of some segments. */
export const saveDraftBody = z.object({
  video_id: videoIdSchema,
  segments: z.array(segmentWithQuestions).min(1, 'segments must not be empty').max(2000),
});

/** POST /api/save-final-questions: optionally replace segments' questions, then finalize (or un-finalize) them. */
export const saveFinalBody = z.object({
  video_id: videoIdSchema,
  segments: z
    .array(
      segmentRangeSchema.and(
        z.object({
          questions: questionList.optional(),
          finalized: z.boolean().default(true),
        }),
      ),
    )
    .min(1, 'segments must not be empty')
    .max(2000),
});

/** POST /api/expert-annotations: notes on a video, a segment or a question ('' deletes a note). */
export const annotationsBody = z.object({
  video_id: videoIdSchema,
  annotations: z
    .array(
      z
        .object({
          segment_range_start: z.number().int().min(0).optional(),
          segment_range_end: z.number().int().min(1).optional(),
          question_id: questionId.optional(),
          note: z.string().trim().max(2000),
        })
        .refine((a) => (a.segment_range_start === undefined) === (a.segment_range_end === undefined), {
          message: 'give both segment_range_start and segment_range_end, or neither',
        }),
    )
    .min(1)
    .max(500),
});

/** POST /api/expert/video/{id}/update-questions: partial edits of questions by id. */
export const updateQuestionsBody = z.object({
  questions: z
    .array(
      z.object({
        id: questionId,
        question_type: questionTypeSchema.optional(),
        question: questionTextSchema.optional(),
        answer: answerTextSchema.optional(),
        expert_ranking: z.number().int().min(1).max(99).nullable().optional(),
        trashed: z.boolean().optional(),
      }),
    )
    .min(1, 'questions must not be empty')
    .max(500),
});

/** POST /api/expert/video/{id}/regenerate-question: a new question for one question or one segment and type. */
export const regenerateBody = z
  .object({
    question_id: questionId.optional(),
    segment_range_start: z.number().int().min(0).optional(),
    segment_range_end: z.number().int().min(1).optional(),
    question_type: questionTypeSchema.optional(),
    instructions: z.string().trim().max(500).optional(),
    provider: z.enum(PROVIDER_NAMES).optional(),
    /** true (default): store it (replacing question_id, or added to the segment); false: only return it */
    save: z.boolean().default(true),
  })
  .refine(
    (b) => b.question_id !== undefined || (b.segment_range_start !== undefined && b.segment_range_end !== undefined && b.question_type !== undefined),
    { message: 'give question_id, or segment_range_start, segment_range_end and question_type' },
  );

const choice = z.object({
  segment_range_start: z.number().int().min(0),
  segment_range_end: z.number().int().min(1),
  companion: companionSchema,
  /** null clears the pick */
  variant_id: z.number().int().positive().nullable(),
});

/** POST /api/expert/video/{id}/persona-variants: generate, write and pick companion wordings. */
export const variantsBody = z.object({
  /** questions to reword with the provider; default: the top question of every segment (when nothing else is asked) */
  question_ids: z.array(questionId).max(500).optional(),
  companions: z.array(companionSchema).min(1).max(3).optional(),
  provider: z.enum(PROVIDER_NAMES).optional(),
  /** the expert's own wordings */
  custom: z
    .array(z.object({ question_id: questionId, companion: companionSchema, question: questionTextSchema, chosen: z.boolean().default(false) }))
    .max(500)
    .optional(),
  /** picks: which variant a child with that companion hears for the segment */
  choices: z.array(choice).max(500).optional(),
});

/** POST /api/expert/questions/persona-variants: reword a list of questions (nothing stored). */
export const variantPreviewBody = z.object({
  questions: z
    .array(z.object({ question: questionTextSchema, answer: answerTextSchema, question_type: questionTypeSchema.default('action') }))
    .min(1, 'questions must not be empty')
    .max(20),
  companions: z.array(companionSchema).min(1).max(3).optional(),
  provider: z.enum(PROVIDER_NAMES).optional(),
});

/** POST /api/submit-questions: the contract's body; each item is a segment result or one question. */
export const submitBody = z.object({
  video_id: videoIdSchema,
  questions: z.array(z.record(z.string(), z.unknown())).min(1, 'questions must not be empty').max(5000),
});

export const finalQuery = z.object({ companion: companionSchema.optional() });
