import { z } from 'zod';
import { COMPANIONS } from '../config.js';
import { childIdSchema, expertIdSchema, videoIdSchema } from '../http/ids.js';
import { GRADING_THRESHOLDS } from './grading/thresholds.js';

/** Request and response schemas of the quiz routes (one per endpoint, shared with OpenAPI). */

export const INTERACTION_MODES = ['strict', 'flexible', 'passive'] as const;
export const ANSWER_STATUSES = ['correct', 'almost', 'wrong'] as const;
export const DETAIL_STATUSES = [...ANSWER_STATUSES, 'skipped'] as const;

export const LIMITS = {
  text: GRADING_THRESHOLDS.max_text_length,
  detailText: 1000,
  details: 200,
  extraKeys: 20,
  extraJson: 2000,
} as const;

const text = (max: number, what: string) => z.string().max(max, `${what} must be at most ${max} characters`);

export const checkAnswerBody = z.object({
  expected: text(LIMITS.text, 'expected').refine((s) => s.trim() !== '', 'expected must not be empty'),
  // an empty transcript is a valid answer (silence): graded wrong, not refused
  user: text(LIMITS.text, 'user'),
  question: text(LIMITS.text, 'question').nullish(),
});

export const checkAnswerResponse = z.object({
  similarity: z.number(),
  expected: z.string(),
  user: z.string(),
  status: z.enum(ANSWER_STATUSES),
  is_numeric: z.boolean().optional(),
  reason: z.string().optional(),
});

const optionalText = (max: number, what: string) => text(max, what).nullish();
const nonNegative = (max: number, what: string) => z.number().finite().min(0, `${what} must be 0 or more`).max(max, `${what} must be at most ${max}`);

/**
 * One answered question. Free-form for the contract: the documented keys are checked for type
 * and length; other keys are accepted, and short scalar ones are kept as extras (see the service).
 */
export const detailSchema = z
  .object({
    question: optionalText(LIMITS.detailText, 'question'),
    question_type: optionalText(40, 'question_type'),
    expected: optionalText(LIMITS.detailText, 'expected'),
    user: optionalText(LIMITS.text, 'user'),
    answer: optionalText(LIMITS.text, 'answer'),
    status: z.enum(DETAIL_STATUSES).nullish(),
    similarity: z.number().finite().min(0).max(1).nullish(),
    segment_range_start: nonNegative(86_400, 'segment_range_start').nullish(),
    segment_range_end: nonNegative(86_400, 'segment_range_end').nullish(),
    retries: z.number().int().min(0).max(1000).nullish(),
  })
  .catchall(z.unknown());

export type DetailInput = z.output<typeof detailSchema>;

const count = (what: string) => z.number().int(`${what} must be a whole number`).min(0, `${what} must be 0 or more`).max(10_000, `${what} must be at most 10000`);

export const saveQuizBody = z.object({
  child_id: childIdSchema,
  video_id: videoIdSchema,
  percentage: nonNegative(100, 'percentage').nullish(),
  total_retries: z.number().int().min(0).max(100_000).nullish(),
  watch_minutes: nonNegative(24 * 60, 'watch_minutes').nullish(),
  interaction_mode: z.enum(INTERACTION_MODES).nullish(),
  companion: z.enum(COMPANIONS).nullish(),
  details: z.array(detailSchema).max(LIMITS.details, `details may hold at most ${LIMITS.details} answers`).nullish(),
  /**
   * Counts for an attempt sent without details (the original service's score_data carries
   * total/correct/wrong): used only when `details` is absent; details are counted otherwise.
   */
  total: count('total').nullish(),
  correct: count('correct').nullish(),
  almost: count('almost').nullish(),
  wrong: count('wrong').nullish(),
  /** the original service's nested form of the fields above; flattened before validation (see attempts.legacy.ts) */
  score_data: z.record(z.string(), z.unknown()).optional(),
  /** true: the child left mid-video; stores (replaces) the checkpoint for this child and video instead of an attempt */
  checkpoint: z.boolean().optional(),
  /** checkpoints: where to resume, the furthest point watched, the video's length (seconds) */
  position_seconds: nonNegative(86_400, 'position_seconds').nullish(),
  furthest_seconds: nonNegative(86_400, 'furthest_seconds').nullish(),
  duration_seconds: nonNegative(86_400, 'duration_seconds').nullish(),
});

/** Body of PUT/POST /api/quiz/checkpoints/{child_id}/{video_id} (POST: what navigator.sendBeacon sends). */
export const checkpointBody = saveQuizBody.omit({
  child_id: true, video_id: true, checkpoint: true, percentage: true, total: true, correct: true, almost: true, wrong: true, score_data: true,
});
export type CheckpointInput = z.output<typeof checkpointBody>;

export type SaveQuizInput = z.output<typeof saveQuizBody>;

export const saveQuizResponse = z.object({
  success: z.literal(true),
  /** null when a checkpoint was saved */
  attempt_id: z.number().int().nullable(),
  checkpoint: z.boolean(),
  percentage: z.number().nullable(),
  question_count: z.number().int(),
  message: z.string(),
});

export const childParams = z.object({ child_id: childIdSchema });
export const childVideoParams = z.object({ child_id: childIdSchema, video_id: videoIdSchema });

export const scoresQuery = z.object({
  video_id: videoIdSchema.optional(),
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
});

export const reportQuery = z.object({
  video_id: videoIdSchema.optional(),
  mode: z.enum(INTERACTION_MODES).optional(),
});

export const expertReportQuery = reportQuery.extend({
  child_id: childIdSchema.optional(),
  /** admin only: whose children */
  expert_id: expertIdSchema.optional(),
});

export const configResponse = z.object({
  skip_prevention: z.boolean(),
  thresholds: z.record(z.string(), z.unknown()),
});
