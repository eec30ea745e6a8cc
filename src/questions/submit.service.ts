import type { Database } from '../db/database.js';
import { badRequest } from '../http/errors.js';
import { generatedSegmentSchema, QUESTION_TYPES, type GeneratedSegment } from './questions.schema.js';
import { dropOverlappingSegments, storeGeneratedSegment } from './segments.repository.js';
import { assertSegmentFits } from './review.service.js';

/**
 * POST /api/submit-questions takes "an array of free-form objects". Accepted items:
 * - a segment: `{segment_range_start, segment_range_end, provider?, model?, questions: [...]}`
 *   (`start`/`end` also accepted), or a `segment_result` event as the WebSocket sent it
 *   (its `result` is used; failed results are skipped);
 * - one question: `{segment_range_start, segment_range_end, question_type, question, answer, rank?}`,
 *   grouped by segment.
 * - the original service's `{start, end, result}`, `result` being the generation's JSON for the
 *   segment (see originalResult).
 * Questions use `question_type` (or `type`) and `llm_ranking` (or `rank`, `ranking`); missing
 * ranks follow the order given. Everything is validated with the generated-segment schema.
 */
export function normalizeSubmitted(items: Record<string, unknown>[]): GeneratedSegment[] {
  const segments = new Map<string, { start: unknown; end: unknown; provider: unknown; model: unknown; questions: Record<string, unknown>[]; at: number }>();
  items.forEach((raw, at) => {
    let item = raw;
    if (item.type === 'segment_result') {
      if (item.ok === false || !isObject(item.result)) return;
      item = item.result;
    } else if ('result' in item && !('questions' in item) && !('question' in item)) {
      const result = originalResult(item.result, at);
      if (result === undefined) return; // the original's failed segment: nothing to store
      // the item's own start/end place the segment; the result's are a fallback
      item = { ...result, segment_range_start: item.start ?? result.segment_range_start ?? result.start, segment_range_end: item.end ?? result.segment_range_end ?? result.end };
    }
    const start = item.segment_range_start ?? item.start ?? item.start_seconds;
    const end = item.segment_range_end ?? item.end ?? item.end_seconds;
    const key = `${String(start)}-${String(end)}`;
    const seg = segments.get(key) ?? { start, end, provider: item.provider, model: item.model, questions: [], at };
    if (Array.isArray(item.questions)) seg.questions.push(...item.questions.filter(isObject));
    else seg.questions.push(item);
    segments.set(key, seg);
  });
  return [...segments.values()].map((s) => {
    const questions = s.questions.map((q, i) => {
      const rank = q.llm_ranking ?? q.rank ?? q.ranking;
      return { question_type: q.question_type ?? q.type, question: q.question, answer: q.answer, rank: typeof rank === 'number' ? rank : i + 1, i };
    });
    questions.sort((a, b) => (a.rank as number) - (b.rank as number) || a.i - b.i);
    const candidate = {
      segment_range_start: s.start,
      segment_range_end: s.end,
      provider: typeof s.provider === 'string' && s.provider ? s.provider.slice(0, 40) : 'submitted',
      model: typeof s.model === 'string' ? s.model.slice(0, 100) : null,
      questions: questions.map((q, i) => ({ question_type: q.question_type, question: q.question, answer: q.answer, llm_ranking: i + 1 })),
    };
    const parsed = generatedSegmentSchema.safeParse(candidate);
    if (!parsed.success) {
      const why = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw badRequest(`Item ${s.at} (segment ${String(s.start)}-${String(s.end)}): ${why}`, parsed.error.issues, 'invalid_questions');
    }
    if (parsed.data.segment_range_end <= parsed.data.segment_range_start) {
      throw badRequest(`Item ${s.at}: segment_range_end must be after segment_range_start.`, undefined, 'invalid_questions');
    }
    return parsed.data;
  });
}

/** Stores submitted segments like a generation run would, in one transaction. */
export async function storeSubmitted(db: Database, videoId: string, segments: GeneratedSegment[]): Promise<{ segments: number; questions: number }> {
  const keys = segments.map((s) => ({ start: s.segment_range_start, end: s.segment_range_end }));
  const sorted = [...keys].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.start < sorted[i - 1]!.end) throw badRequest(`Submitted segments overlap at ${sorted[i]!.start} s.`, undefined, 'segment_overlap');
  }
  await db.transaction(async (tx) => {
    await dropOverlappingSegments(tx, videoId, keys);
    for (const k of keys) await assertSegmentFits(tx, videoId, k);
    for (const s of segments) await storeGeneratedSegment(tx, videoId, s);
  });
  return { segments: segments.length, questions: segments.reduce((n, s) => n + s.questions.length, 0) };
}

/**
 * The original service's item `{start, end, result}`: `result` is the generation's JSON for the
 * segment, as an object or as the JSON text itself (a fenced reply is unwrapped). Its questions
 * are a list (`questions: [{question_type|type, question, answer, rank}]`) or keyed by question
 * type (`questions: {character: {question, answer, rank}, ...}`, or those keys at the top).
 * A result that reports a failure (`success: false` or an `error` and no questions) is skipped,
 * as a failed `segment_result` event is.
 */
function originalResult(value: unknown, at: number): Record<string, unknown> | undefined {
  let result = value;
  if (typeof result === 'string') {
    const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(result.trim());
    try {
      result = JSON.parse(fenced ? fenced[1]! : result);
    } catch {
      throw badRequest(`Item ${at}: result is not valid JSON.`, undefined, 'invalid_questions');
    }
  }
  if (!isObject(result)) throw badRequest(`Item ${at}: result must be the generation's JSON object for the segment.`, undefined, 'invalid_questions');
  const keyed = isObject(result.questions) ? result.questions : result.questions === undefined ? pickTypeKeys(result) : undefined;
  const questions = keyed ? Object.entries(keyed).map(([type, q]) => (isObject(q) ? { question_type: type, ...q } : q)) : result.questions;
  const empty = !Array.isArray(questions) || questions.length === 0;
  if (empty && (result.success === false || result.ok === false || result.error !== undefined)) return undefined;
  return { ...result, questions: Array.isArray(questions) ? questions : [] };
}

/** `{character: {...}, setting: {...}}` at the top of a result: the keys that name question types. */
function pickTypeKeys(result: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(result).filter(([k, v]) => (QUESTION_TYPES as readonly string[]).includes(k) && isObject(v));
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
