import type { Database } from '../db/database.js';
import type { Companion } from '../config.js';
import type { FinalQuestionSegment } from './questions.schema.js';
import { rankedQuestions, servedQuestions, type Candidate } from './final.repository.js';
import { servedSegments, type ServedSegments } from './served-cache.js';

/**
 * What a child is served: per finalized segment, the expert's top-ranked question that is not
 * trashed (ranked before unranked, then by the AI's rank, then the expert's order), worded for
 * the companion when there is a variant: the expert's pick for the segment when it belongs to
 * that question, else the newest variant of that question for the companion, else the base.
 * Cached per instance and exact (served-cache.ts): the result is frozen and shared, never mutate it.
 */
export function finalQuestions(db: Database, videoId: string, companion: Companion | null): Promise<ServedSegments> {
  return servedSegments(db, videoId, companion, () => selectFinalQuestions(db, videoId, companion));
}

async function selectFinalQuestions(db: Database, videoId: string, companion: Companion | null): Promise<FinalQuestionSegment[]> {
  return (await servedQuestions(db, videoId, companion)).map((r) => {
    const wording = companion ? (r.chosen_wording ?? r.latest_wording ?? null) : null;
    return {
      segment_range_start: r.start_seconds,
      segment_range_end: r.end_seconds,
      question: wording ?? r.question,
      answer: r.answer,
      llm_ranking: r.llm_ranking ?? 0,
      expert_ranking: r.expert_ranking ?? 0,
      question_type: r.question_type,
      question_id: r.id,
      companion: wording ? companion : null,
    };
  });
}

/** The top question of each segment (finalized segments only, or all), in segment order. */
export async function topQuestions(db: Database, videoId: string, finalizedOnly: boolean): Promise<Candidate[]> {
  const out: Candidate[] = [];
  let lastKey = '';
  for (const r of await rankedQuestions(db, videoId, finalizedOnly)) {
    const key = `${r.start_seconds}-${r.end_seconds}`;
    if (key !== lastKey) out.push(r);
    lastKey = key;
  }
  return out;
}
