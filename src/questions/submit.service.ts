import type { Db } from '../db/database.js';
import { badRequest } from '../http/errors.js';
import { generatedSegmentSchema, type GeneratedSegment } from './questions.schema.js';
import { dropOverlappingSegments, storeGeneratedSegment } from './segments.repository.js';
import { assertSegmentFits } from './review.service.js';

/**
 * POST /api/submit-questions takes "an array of free-form objects". Accepted items:
 * - a segment: `{segment_range_start, segment_range_end, provider?, model?, questions: [...]}`
 *   (`start`/`end` also accepted), or a `segment_result` event as the WebSocket sent it
 *   (its `result` is used; failed results are skipped);
 * - one question: `{segment_range_start, segment_range_end, question_type, question, answer, rank?}`,
 *   grouped by segment.
 * Questions use `question_type` (or `type`) and `llm_ranking` (or `rank`); missing ranks follow
 * the order given. Everything is validated with the generated-segment schema.
 */
export function normalizeSubmitted(items: Record<string, unknown>[]): GeneratedSegment[] {
  const segments = new Map<string, { start: unknown; end: unknown; provider: unknown; model: unknown; questions: Record<string, unknown>[]; at: number }>();
  items.forEach((raw, at) => {
    let item = raw;
    if (item.type === 'segment_result') {
      if (item.ok === false || !isObject(item.result)) return;
      item = item.result;
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
    const questions = s.questions.map((q, i) => ({
      question_type: q.question_type ?? q.type,
      question: q.question,
      answer: q.answer,
      rank: typeof (q.llm_ranking ?? q.rank) === 'number' ? (q.llm_ranking ?? q.rank) : i + 1,
      i,
    }));
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
export function storeSubmitted(db: Db, videoId: string, segments: GeneratedSegment[]): { segments: number; questions: number } {
  const keys = segments.map((s) => ({ start: s.segment_range_start, end: s.segment_range_end }));
  const sorted = [...keys].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.start < sorted[i - 1]!.end) throw badRequest(`Submitted segments overlap at ${sorted[i]!.start} s.`, undefined, 'segment_overlap');
  }
  db.transaction(() => {
    dropOverlappingSegments(db, videoId, keys);
    for (const k of keys) assertSegmentFits(db, videoId, k);
    for (const s of segments) storeGeneratedSegment(db, videoId, s);
  });
  return { segments: segments.length, questions: segments.reduce((n, s) => n + s.questions.length, 0) };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
