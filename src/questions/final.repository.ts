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

/** A segment's top question with its companion wordings (null when there is none). */
export type ServedCandidate = Candidate & { chosen_wording: string | null; latest_wording: string | null };

/**
 * What children are served, in one statement (it was 1 + 2 queries per segment, the largest part
 * of GET /api/final-questions' database time): per finalized segment the top live question (the
 * same order as rankedQuestions), with the expert's pick of wording for the companion when it
 * belongs to that question and the newest variant of that question for the companion.
 * `companion` null gives null wordings.
 */
export async function servedQuestions(db: Database, videoId: string, companion: string | null): Promise<ServedCandidate[]> {
  return db.all<ServedCandidate>(
    `SELECT t.id, t.start_seconds, t.end_seconds, t.question_type, t.question, t.answer, t.llm_ranking, t.expert_ranking,
            (SELECT v.question FROM persona_winners w JOIN persona_variants v ON v.id = w.variant_id
              WHERE w.video_id = t.video_id AND w.start_seconds = t.start_seconds AND w.end_seconds = t.end_seconds
                AND w.companion = @companion AND v.question_id = t.id) AS chosen_wording,
            (SELECT v.question FROM persona_variants v
              WHERE v.question_id = t.id AND v.companion = @companion ORDER BY v.id DESC LIMIT 1) AS latest_wording
       FROM (SELECT q.id, q.video_id, q.start_seconds, q.end_seconds, q.question_type, q.question, q.answer,
                    q.llm_ranking, q.expert_ranking,
                    ROW_NUMBER() OVER (PARTITION BY q.start_seconds, q.end_seconds
                      ORDER BY q.expert_ranking IS NULL, q.expert_ranking, q.llm_ranking IS NULL, q.llm_ranking,
                               q.position, q.id) AS rn
               FROM review_questions q
               JOIN review_segments s ON s.video_id = q.video_id AND s.start_seconds = q.start_seconds AND s.end_seconds = q.end_seconds
              WHERE q.video_id = @video_id AND s.finalized = 1 AND q.trashed = 0) t
      WHERE t.rn = 1
      ORDER BY t.start_seconds, t.end_seconds`,
    { video_id: videoId, companion },
  );
}

/**
 * The video's revision of what children are served (moved by migration 012's triggers on every
 * change servedQuestions can see) and the row's creation time; undefined when there is no video.
 */
export async function questionsRevision(db: Database, videoId: string): Promise<{ rev: number; born: string } | undefined> {
  return db.first<{ rev: number; born: string }>('SELECT questions_rev AS rev, created_at AS born FROM videos WHERE id = ?', [videoId]);
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
