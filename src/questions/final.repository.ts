import type { Database } from '../db/database.js';
import type { QuestionRow } from './review.repository.js';

/** SQL for what children are served: the finalized segments' live questions, best first. */

/** A question as the child-serving selection reads it (the review row without its review-only columns). */
export type Candidate = Omit<QuestionRow, 'trashed' | 'origin' | 'provider'>;

/** The top candidates' raw rows: every live question, best first within each segment. */
export async function rankedQuestions(db: Database, videoId: string, finalizedOnly: boolean): Promise<Candidate[]> {
  return db.all<Candidate>(
    `SELECT q.id, q.start_seconds, q.end_seconds, q.question_type, q.question, q.answer, q.llm_ranking, q.expert_ranking
       FROM review_questions q
       JOIN review_segments s ON s.video_id = q.video_id AND s.start_seconds = q.start_seconds AND s.end_seconds = q.end_seconds
      WHERE q.video_id = ? AND (s.finalized = 1 OR ? = 0) AND q.trashed = 0
      ORDER BY q.start_seconds, q.end_seconds, q.expert_ranking IS NULL, q.expert_ranking,
               q.llm_ranking IS NULL, q.llm_ranking, q.position, q.id`,
    [videoId, finalizedOnly ? 1 : 0],
  );
}

/** Per video: finalized segments that still have a question to serve. */
export async function finalSegmentCounts(db: Database): Promise<{ video_id: string; n: number }[]> {
  const rows = await db.all<{ video_id: string; n: number }>(
    `SELECT s.video_id, COUNT(*) AS n FROM review_segments s
      WHERE s.finalized = 1 AND EXISTS (
        SELECT 1 FROM review_questions q
         WHERE q.video_id = s.video_id AND q.start_seconds = s.start_seconds
           AND q.end_seconds = s.end_seconds AND q.trashed = 0)
      GROUP BY s.video_id`,
  );
  return rows.map((r) => ({ video_id: r.video_id, n: Number(r.n) }));
}
