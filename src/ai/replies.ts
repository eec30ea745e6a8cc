import { z } from 'zod';
import type { Companion } from '../config.js';
import { questionTypeSchema, type GeneratedQuestion, type QuestionType } from '../questions/questions.schema.js';
import { ProviderError } from './errors.js';
import type { JudgeResult, ProviderName, RegeneratedQuestion } from './types.js';

/**
 * Strict parsing of model replies. A reply that is not JSON, or not the asked shape, becomes
 * a retryable `invalid_reply` error; nothing half-valid reaches the database.
 */

const words = (max: number) => (s: string) => s.split(/\s+/).filter(Boolean).length <= max;
const questionText = z.string().trim().min(3).max(300).refine(words(30), 'question is too long for a young child');
const answerText = z.string().trim().min(1).max(120).refine(words(12), 'answer must be a few words');

export const segmentReplySchema = z.object({
  questions: z
    .array(z.object({ question_type: questionTypeSchema, question: questionText, answer: answerText, rank: z.number().int().min(1).max(20) }))
    .min(1)
    .max(7)
    .refine((qs) => new Set(qs.map((q) => q.question_type)).size === qs.length, 'each question type may appear only once'),
});

export const regenerateReplySchema = z.object({ question_type: questionTypeSchema, question: questionText, answer: answerText });

export const variantsReplySchema = z.object({ variants: z.record(z.string(), z.string().trim().min(3).max(300)) });

export const judgeReplySchema = z.object({
  status: z.enum(['correct', 'almost', 'wrong']),
  reason: z.string().trim().max(300).default(''),
});

/** Extracts the JSON object from a reply (models sometimes wrap it in a ``` fence). */
export function parseJsonReply<T>(provider: string, text: string, schema: z.ZodType<T>): T {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  const body = fenced ? fenced[1]! : trimmed;
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw new ProviderError('invalid_reply', 'The provider did not reply with JSON.', provider);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const why = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'reply'}: ${i.message}`).join('; ');
    throw new ProviderError('invalid_reply', `The provider's reply had the wrong shape (${why}).`, provider);
  }
  return parsed.data;
}

/** Questions in rank order with ranks renumbered 1..n (models sometimes repeat or skip ranks). */
export function toGeneratedQuestions(reply: z.infer<typeof segmentReplySchema>): GeneratedQuestion[] {
  return reply.questions
    .map((q, i) => ({ q, i }))
    .sort((a, b) => a.q.rank - b.q.rank || a.i - b.i)
    .map(({ q }, i) => ({ question_type: q.question_type, question: q.question, answer: q.answer, llm_ranking: i + 1 }));
}

export function toRegenerated(provider: string, reply: z.infer<typeof regenerateReplySchema>, wanted: QuestionType): RegeneratedQuestion {
  if (reply.question_type !== wanted) throw new ProviderError('invalid_reply', `Asked for a ${wanted} question, got ${reply.question_type}.`, provider);
  return reply;
}

/** Keeps the requested companions only; a variant must exist for each and must not give the answer away. */
export function toVariants(
  provider: string,
  reply: z.infer<typeof variantsReplySchema>,
  companions: readonly Companion[],
  base: { question: string; answer: string },
): Partial<Record<Companion, string>> {
  const out: Partial<Record<Companion, string>> = {};
  for (const c of companions) {
    const text = reply.variants[c];
    if (!text) throw new ProviderError('invalid_reply', `The reply has no ${c} variant.`, provider);
    if (revealsAnswer(text, base)) throw new ProviderError('invalid_reply', `The ${c} variant gives the answer away.`, provider);
    out[c] = text;
  }
  return out;
}

export function toJudgeResult(provider: ProviderName, reply: z.infer<typeof judgeReplySchema>): JudgeResult {
  return { status: reply.status, reason: reply.reason || `Judged ${reply.status} by ${provider}.`, provider };
}

const norm = (s: string) => ` ${s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()} `;

/** True when a rewording contains the answer although the original question did not. */
export function revealsAnswer(variant: string, base: { question: string; answer: string }): boolean {
  const answer = norm(base.answer).trim();
  if (answer.length < 3 || /^(a|an|the|yes|no)$/.test(answer)) return false;
  const a = ` ${answer} `;
  return norm(variant).includes(a) && !norm(base.question).includes(a);
}
