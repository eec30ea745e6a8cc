import { z } from 'zod';
import { PROVIDER_NAMES } from '../ai/types.js';
import type { GeneratedSegment, ProviderErrorInfo } from './questions.schema.js';

/** The client's message on /ws/questions/{video_id}. */
export const generationRequestSchema = z.object({
  start_seconds: z.number().int('must be whole seconds').min(0).max(24 * 3600),
  interval_seconds: z.number().int('must be whole seconds').min(5, 'must be at least 5 seconds').max(3600),
  full_duration: z.boolean(),
  /** default: QUESTION_PROVIDER */
  provider: z.enum(PROVIDER_NAMES).optional(),
  /** also redo segments that already have questions */
  regenerate: z.boolean().default(false),
});
export type GenerationRequest = z.infer<typeof generationRequestSchema>;

/** Server events, in the order a run uses them (documented in docs/questions.md). */
export interface StatusEvent {
  type: 'status';
  phase: 'started' | 'progress';
  message: string;
  video_id: string;
  provider: string;
  model: string | null;
  total: number;
  done: number;
  skipped: number;
  failed: number;
}

export type SegmentResultEvent = {
  type: 'segment_result';
  video_id: string;
  segment_range_start: number;
  segment_range_end: number;
  provider: string;
  index: number;
  total: number;
} & ({ ok: true; result: GeneratedSegment } | { ok: false; error: ProviderErrorInfo });

export interface DoneEvent {
  type: 'done';
  video_id: string;
  provider: string;
  total: number;
  generated: number;
  skipped: number;
  failed: number;
  duration_ms: number;
  message: string;
}

export interface ErrorEvent {
  type: 'error';
  code: string;
  message: string;
  detail?: unknown;
}

export type GenerationEvent = StatusEvent | SegmentResultEvent | DoneEvent | ErrorEvent;
