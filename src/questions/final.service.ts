import type { Db } from '../db/database.js';
import type { Companion } from '../config.js';
import type { FinalQuestionSegment } from './questions.schema.js';
import type { QuestionRow } from './review.repository.js';

/** A question as the child-serving selection reads it (the review row without its review-only columns). */
type Candidate = Omit<QuestionRow, 'trashed' | 'origin' | 'provider'>;

/**
 * What a child is served: per finalized segment, the expert's top-ranked question that is not
 * trashed (ranked before unranked, then by the AI's rank, then the expert's order), worded for
 * the companion when there is a variant: the expert's pick for the segment when it belongs to
 * that question, else the newest variant of that question for the companion, else the base.
 */
export function finalQuestions(db: Db, videoId: string, companion: Companion | null): FinalQuestionSegment[] {
  const out: FinalQuestionSegment[] = [];
  for (const r of topQuestions(db, videoId, true)) {
    const wording = companion ? companionWording(db, videoId, r, companion) : null;
    out.push({
      segment_range_start: r.start_seconds,
      segment_range_end: r.end_seconds,
      question: wording ?? r.question,
      answer: r.answer,
      llm_ranking: r.llm_ranking ?? 0,
      expert_ranking: r.expert_ranking ?? 0,
      question_type: r.question_type,
      question_id: r.id,
      companion: wording ? companion : null,
    });
  }
  return out;
}

/** The top question of each segment (finalized segments only, or all), in segment order. */
export function topQuestions(db: Db, videoId: string, finalizedOnly: boolean): Candidate[] {
  const rows = db.allSync<Candidate>(
    `SELECT q.id, q.start_seconds, q.end_seconds, q.question_type, q.question, q.answer, q.llm_ranking, q.expert_ranking
       FROM review_questions q
       JOIN review_segments s ON s.video_id = q.video_id AND s.start_seconds = q.start_seconds AND s.end_seconds = q.end_seconds
      WHERE q.video_id = ? AND (s.finalized = 1 OR ? = 0) AND q.trashed = 0
      ORDER BY q.start_seconds, q.end_seconds, q.expert_ranking IS NULL, q.expert_ranking,
               q.llm_ranking IS NULL, q.llm_ranking, q.position, q.id`,
    [videoId, finalizedOnly ? 1 : 0],
  );
  const out: Candidate[] = [];
  let lastKey = '';
  for (const r of rows) {
    const key = `${r.start_seconds}-${r.end_seconds}`;
    if (key !== lastKey) out.push(r);
    lastKey = key;
  }
  return out;
}

function companionWording(db: Db, videoId: string, q: Candidate, companion: Companion): string | null {
  const chosen = db.firstSync<{ question: string }>(
    `SELECT v.question FROM persona_winners w JOIN persona_variants v ON v.id = w.variant_id
      WHERE w.video_id = ? AND w.start_seconds = ? AND w.end_seconds = ? AND w.companion = ? AND v.question_id = ?`,
    [videoId, q.start_seconds, q.end_seconds, companion, q.id],
  );
  if (chosen) return chosen.question;
  const latest = db.firstSync<{ question: string }>(
    'SELECT question FROM persona_variants WHERE question_id = ? AND companion = ? ORDER BY id DESC LIMIT 1',
    [q.id, companion],
  );
  return latest?.question ?? null;
}
