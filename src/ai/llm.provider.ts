import type { z } from 'zod';
import type { Logger } from '../logger.js';
import type { GeneratedQuestion } from '../questions/questions.schema.js';
import { ProviderError, classifyError } from './errors.js';
import { judgePrompt, regeneratePrompt, segmentPrompt, variantsPrompt, type Prompt } from './prompts.js';
import {
  judgeReplySchema,
  parseJsonReply,
  regenerateReplySchema,
  segmentReplySchema,
  toGeneratedQuestions,
  toJudgeResult,
  toRegenerated,
  toVariants,
  variantsReplySchema,
} from './replies.js';
import { withRetry } from './retry.js';
import type { CallOptions, FrameImage, JudgeInput, ProviderName, QuestionProvider, RegenerateInput, SegmentInput, VariantInput } from './types.js';

/** One model call, as each SDK adapter implements it: returns the reply text or throws. */
export interface CompletionRequest {
  system: string;
  text: string;
  images: FrameImage[];
  maxTokens: number;
  signal: AbortSignal;
}
export type Complete = (req: CompletionRequest) => Promise<string>;

export interface LlmOptions {
  timeoutMs: number;
  judgeTimeoutMs: number;
  maxRetries: number;
  /** first retry back-off (doubles per attempt) */
  baseDelayMs?: number;
  logger: Logger;
}

/**
 * The four operations built once on top of an SDK adapter's `complete`: prompt, call with a
 * time-out and the caller's abort signal, strict parse, bounded retry of retryable failures.
 */
export class LlmProvider implements QuestionProvider {
  constructor(
    readonly name: Exclude<ProviderName, 'builtin'>,
    readonly model: string,
    private readonly complete: Complete,
    private readonly o: LlmOptions,
  ) {}

  async generateSegment(input: SegmentInput, opts: CallOptions = {}): Promise<GeneratedQuestion[]> {
    if (input.subtitles.length === 0 && input.frames.length === 0) {
      throw new ProviderError('no_input', 'This segment has neither frames nor subtitles.', this.name);
    }
    const reply = await this.ask(segmentPrompt(input), input.frames, segmentReplySchema, 1500, opts.signal);
    return toGeneratedQuestions(reply);
  }

  async regenerateQuestion(input: RegenerateInput, opts: CallOptions = {}) {
    const reply = await this.ask(regeneratePrompt(input), input.segment.frames, regenerateReplySchema, 400, opts.signal);
    return toRegenerated(this.name, reply, input.questionType);
  }

  async writeVariants(input: VariantInput, opts: CallOptions = {}) {
    return this.retrying(opts.signal, async (signal) => {
      const text = await this.call(variantsPrompt(input), [], 600, signal, this.o.timeoutMs);
      return toVariants(this.name, parseJsonReply(this.name, text, variantsReplySchema), input.companions, input);
    });
  }

  /** One attempt only, within AI_JUDGE_TIMEOUT_MS: a child is waiting for the verdict. */
  async judgeAnswer(input: JudgeInput, opts: CallOptions = {}) {
    try {
      const text = await this.call(judgePrompt(input), [], 200, opts.signal, this.o.judgeTimeoutMs);
      return toJudgeResult(this.name, parseJsonReply(this.name, text, judgeReplySchema));
    } catch (err) {
      throw classifyError(this.name, err, opts.signal);
    }
  }

  /** A JSON reply to another feature's prompt (the code quiz's hints), strictly parsed, with the same retries. */
  askJson<T>(prompt: Prompt, schema: z.ZodType<T>, maxTokens: number, opts: CallOptions = {}): Promise<T> {
    return this.ask(prompt, [], schema, maxTokens, opts.signal);
  }

  private ask<T>(prompt: Prompt, frames: FrameImage[], schema: z.ZodType<T>, maxTokens: number, signal?: AbortSignal): Promise<T> {
    return this.retrying(signal, async (s) => {
      const text = await this.call(prompt, prompt.withImages ? frames : [], maxTokens, s, this.o.timeoutMs);
      return parseJsonReply(this.name, text, schema);
    });
  }

  private retrying<T>(signal: AbortSignal | undefined, fn: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    return withRetry(() => fn(signal), {
      provider: this.name,
      maxRetries: this.o.maxRetries,
      baseDelayMs: this.o.baseDelayMs,
      signal,
      onRetry: (err, attempt, delay) =>
        this.o.logger.warn({ provider: this.name, error_code: err.code, attempt, delay_ms: Math.round(delay) }, 'retrying provider call'),
    });
  }

  /** One call with its own time-out; a time-out is told apart from the caller's cancel. */
  private async call(prompt: Prompt, images: FrameImage[], maxTokens: number, signal: AbortSignal | undefined, timeoutMs: number): Promise<string> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return await this.complete({ system: prompt.system, text: prompt.text, images, maxTokens, signal: combined });
    } catch (err) {
      if (signal?.aborted) throw new ProviderError('aborted', 'The request was cancelled.', this.name);
      if (timeout.aborted) throw new ProviderError('timeout', `The provider did not answer within ${timeoutMs} ms.`, this.name);
      throw classifyError(this.name, err);
    }
  }
}

/** Typical refusal openings when a model answers in prose instead of JSON. */
export function looksLikeRefusal(text: string): boolean {
  return /^\s*(i['’]?m sorry|sorry|i can(?:not|['’]t)|i am unable|i['’]m unable|i won['’]t)\b/i.test(text);
}
