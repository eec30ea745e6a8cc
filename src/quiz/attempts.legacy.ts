import type { RequestHandler } from 'express';
import { AppError } from '../http/errors.js';

/**
 * The original service's players send `POST /api/save-quiz-score` as
 * `{child_id, video_id, score_data: {total, correct, wrong, percentage, total_retries,
 * avg_retries_per_question, watch_minutes, details: [{question, expectedAnswer, userAnswer,
 * status, similarity, question_type, timestamp}]}}`. This turns that into the contract's flat
 * body before validation, so both shapes go through the same schema and store the same attempt
 * (without it the nested score was silently lost: a stored attempt with a null percentage).
 */

/** contract fields a nested score_data may carry; the flat field wins when both are present */
const FLAT_FIELDS = ['percentage', 'total_retries', 'watch_minutes', 'interaction_mode', 'companion', 'details', 'total', 'correct', 'almost', 'wrong'] as const;

/** the original's names for detail fields, and its words for a detail status */
const DETAIL_ALIASES: Record<string, string> = { expectedAnswer: 'expected', userAnswer: 'user', questionType: 'question_type' };
const STATUS_WORDS: Record<string, string> = { incorrect: 'wrong', partial: 'almost', partially_correct: 'almost', skip: 'skipped' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null;

export function flattenScoreData(body: unknown): unknown {
  if (!isObject(body) || !('score_data' in body)) return body;
  const { score_data: scoreData, ...flat } = body;
  if (!isObject(scoreData)) {
    // refusing beats the old behaviour of storing an attempt with no score
    throw new AppError(422, 'invalid_score_data', 'score_data must be an object like {total, correct, wrong, percentage, details}.', [
      { loc: ['body', 'score_data'], msg: 'must be an object', type: 'object_type' },
    ]);
  }
  const merged: Record<string, unknown> = { ...flat };
  for (const key of FLAT_FIELDS) {
    if (absent(merged[key]) && !absent(scoreData[key])) merged[key] = scoreData[key];
  }
  if (Array.isArray(merged.details)) merged.details = merged.details.map(renameDetail);
  return merged;
}

/** `expectedAnswer`/`userAnswer` are the contract's `expected`/`user` (the contract's key wins). */
function renameDetail(d: unknown): unknown {
  if (!isObject(d)) return d;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(d)) {
    const name = DETAIL_ALIASES[key];
    if (name === undefined) out[key] = value;
    else if (absent(d[name])) out[name] = value;
  }
  if (typeof out.status === 'string') out.status = STATUS_WORDS[out.status.toLowerCase()] ?? out.status.toLowerCase();
  return out;
}

/** Route middleware: reads the nested body (422 when score_data is not an object). */
export const legacyScoreBody: RequestHandler = (req, _res, next) => {
  req.body = flattenScoreData(req.body);
  next();
};
