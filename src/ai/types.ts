import type { Companion } from '../config.js';
import type { GeneratedQuestion, QuestionType } from '../questions/questions.schema.js';

export const PROVIDER_NAMES = ['builtin', 'openai', 'anthropic', 'gemini'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export interface SubtitleLine {
  /** seconds from the start of the video */
  time: number;
  text: string;
}

export interface FrameImage {
  /** seconds from the start of the video */
  timestamp: number;
  /** JPEG bytes, already downscaled (about 512 px wide) */
  data: Buffer;
  mimeType: 'image/jpeg';
}

/** Everything a provider is told about one segment. */
export interface SegmentInput {
  videoId: string;
  title?: string;
  start: number;
  end: number;
  subtitles: SubtitleLine[];
  frames: FrameImage[];
  /** the first subtitle lines after the segment: only the offline provider uses them, for predictions */
  after?: SubtitleLine[];
}

export interface RegenerateInput {
  segment: SegmentInput;
  questionType: QuestionType;
  /** wordings to move away from (the current question and its siblings) */
  avoid: string[];
  /** the expert's wish, e.g. "simpler words" */
  instructions?: string;
}

export interface RegeneratedQuestion {
  question_type: QuestionType;
  question: string;
  answer: string;
}

export interface VariantInput {
  questionType: QuestionType;
  question: string;
  answer: string;
  companions: readonly Companion[];
}

export interface JudgeInput {
  question?: string;
  expected: string;
  user: string;
}

export interface JudgeResult {
  status: 'correct' | 'almost' | 'wrong';
  reason: string;
  provider: ProviderName;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** One interface for every provider: the real SDK adapters and the offline builtin one. */
export interface QuestionProvider {
  readonly name: ProviderName;
  readonly model: string | null;
  generateSegment(input: SegmentInput, opts?: CallOptions): Promise<GeneratedQuestion[]>;
  regenerateQuestion(input: RegenerateInput, opts?: CallOptions): Promise<RegeneratedQuestion>;
  /** one rewording per requested companion; the answer never changes */
  writeVariants(input: VariantInput, opts?: CallOptions): Promise<Partial<Record<Companion, string>>>;
  judgeAnswer(input: JudgeInput, opts?: CallOptions): Promise<JudgeResult>;
}

/** What the quiz grader needs: a judge for borderline answers, time-boxed by the caller's signal. */
export interface AnswerJudge {
  readonly provider: ProviderName;
  judgeAnswer(input: JudgeInput, opts?: CallOptions): Promise<JudgeResult>;
}
