import { z } from 'zod';
import { COMPANIONS, type Companion } from '../config.js';

/**
 * The question formats of the service, defined once. Every other module (providers, routes,
 * the sample import, the quiz) uses these schemas and this spelling of the question types.
 */
export const QUESTION_TYPES = ['character', 'setting', 'feeling', 'action', 'causal', 'outcome', 'prediction'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const questionTypeSchema = z.enum(QUESTION_TYPES);

export { COMPANIONS };
export type { Companion };
export const companionSchema = z.enum(COMPANIONS);

/** Where a question in the review set came from. */
export const QUESTION_ORIGINS = ['generated', 'expert', 'regenerated', 'imported'] as const;
export type QuestionOrigin = (typeof QUESTION_ORIGINS)[number];

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
export const questionTextSchema = text(500);
export const answerTextSchema = text(200);
const seconds = z.number().int('must be whole seconds').min(0).max(24 * 3600);
const ranking = z.number().int().min(1).max(99);

/** A segment of a video, in whole seconds (end exclusive). */
export const segmentRangeSchema = z
  .object({ segment_range_start: seconds, segment_range_end: seconds })
  .refine((s) => s.segment_range_end > s.segment_range_start, {
    message: 'segment_range_end must be after segment_range_start',
    path: ['segment_range_end'],
  });

/** One AI-generated question: the shape every provider returns (after parsing). */
export const generatedQuestionSchema = z.object({
  question_type: questionTypeSchema,
  question: questionTextSchema,
  answer: answerTextSchema,
  /** the provider's own rank within the segment, 1 = best */
  llm_ranking: z.number().int().min(1).max(QUESTION_TYPES.length),
});
export type GeneratedQuestion = z.infer<typeof generatedQuestionSchema>;

/** One question per type at most; at least one. */
export const generatedQuestionListSchema = z
  .array(generatedQuestionSchema)
  .min(1, 'at least one question is needed')
  .max(QUESTION_TYPES.length)
  .refine((qs) => new Set(qs.map((q) => q.question_type)).size === qs.length, 'each question type may appear only once');

/** A generated segment result: what a provider produced for one segment, and who produced it. */
export const generatedSegmentSchema = z.object({
  segment_range_start: seconds,
  segment_range_end: seconds,
  provider: z.string().min(1),
  model: z.string().nullable(),
  questions: generatedQuestionListSchema,
});
export type GeneratedSegment = z.infer<typeof generatedSegmentSchema>;

/** A structured provider error, as stored and sent in `segment_result` events. */
export const providerErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  provider: z.string(),
});
export type ProviderErrorInfo = z.infer<typeof providerErrorSchema>;

/** A reviewed question as the expert edits it (input of the review routes and of the import). */
export const reviewedQuestionSchema = z.object({
  /** id of an existing review question (kept when given and it belongs to the segment) */
  id: z.number().int().positive().optional(),
  question_type: questionTypeSchema,
  question: questionTextSchema,
  answer: answerTextSchema,
  llm_ranking: ranking.nullable().default(null),
  expert_ranking: ranking.nullable().default(null),
  trashed: z.boolean().default(false),
});
export type ReviewedQuestionInput = z.infer<typeof reviewedQuestionSchema>;

/** A stored review question (output). */
export interface ReviewQuestion {
  id: number;
  segment_range_start: number;
  segment_range_end: number;
  question_type: QuestionType;
  question: string;
  answer: string;
  llm_ranking: number | null;
  expert_ranking: number | null;
  trashed: boolean;
  origin: QuestionOrigin;
  provider: string | null;
}

/** A companion's rewording of one question; the answer is always the base question's. */
export interface PersonaVariant {
  id: number;
  question_id: number;
  companion: Companion;
  question: string;
  answer: string;
  provider: string;
  /** true when this variant is the expert's pick for its segment and companion */
  chosen: boolean;
}

/** One served question per finalized segment (GET /api/final-questions/{video_id}). */
export const finalQuestionSegmentSchema = z.object({
  segment_range_start: z.number().int(),
  segment_range_end: z.number().int(),
  question: z.string(),
  answer: z.string(),
  /** 0 when the question has no such ranking (the contract types both as integers) */
  llm_ranking: z.number().int(),
  expert_ranking: z.number().int(),
  question_type: questionTypeSchema,
  question_id: z.number().int(),
  /** the companion whose wording is served, null for the base wording */
  companion: companionSchema.nullable(),
});
export type FinalQuestionSegment = z.infer<typeof finalQuestionSegmentSchema>;

export const finalQuestionsResponseSchema = z.object({
  success: z.boolean(),
  video_id: z.string(),
  /** whose wording was asked for (null: the base wording) */
  companion: companionSchema.nullable(),
  segments: z.array(finalQuestionSegmentSchema),
  error: z.string().optional(),
});
