import { gradeAnswer } from './grading/grader.js';
import type { NewAnswer } from './attempts.repository.js';
import { LIMITS, type DetailInput } from './quiz.schema.js';

/** Turning the player's free-form detail objects into stored answers. */

const DOCUMENTED_KEYS = new Set(['question', 'question_type', 'expected', 'user', 'answer', 'status', 'similarity',
  'segment_range_start', 'segment_range_end', 'retries']);

/**
 * One detail as stored. `user` (or its alias `answer`) is what the child said. A missing status
 * is graded offline from expected + what was said, so reports can still tell correct from not.
 * Other keys are kept when their value is a scalar (strings cut to 200 characters, at most 20
 * keys, 2000 characters in all); nested values are dropped.
 */
export function toAnswer(d: DetailInput): NewAnswer {
  const user = d.user ?? d.answer ?? '';
  const expected = d.expected ?? '';
  let status = d.status ?? null;
  let similarity = d.similarity ?? null;
  if (status === null && expected.trim() !== '' && (d.user != null || d.answer != null)) {
    const graded = gradeAnswer({ expected, user, question: d.question ?? undefined });
    status = graded.status;
    similarity ??= graded.similarity;
  }
  const extra: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(d)) {
    if (DOCUMENTED_KEYS.has(key) || key.length > 40 || Object.keys(extra).length >= LIMITS.extraKeys) continue;
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) continue;
    extra[key] = typeof value === 'string' ? value.slice(0, 200) : (value as number | boolean | null);
    if (JSON.stringify(extra).length > LIMITS.extraJson) {
      delete extra[key];
      break;
    }
  }
  return {
    question: d.question ?? '',
    question_type: d.question_type?.trim() || null,
    expected,
    user_answer: user,
    status,
    similarity,
    segment_range_start: d.segment_range_start == null ? null : Math.round(d.segment_range_start),
    segment_range_end: d.segment_range_end == null ? null : Math.round(d.segment_range_end),
    retries: d.retries ?? 0,
    extra_json: Object.keys(extra).length > 0 ? JSON.stringify(extra) : null,
  };
}
