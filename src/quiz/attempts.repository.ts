import type { Database } from '../db/database.js';
import type { ChildAccessRow } from '../accounts/children.repository.js';
import { expertVideoCondition } from '../videos/videos.repository.js';

/** SQL for quiz attempts and their answers. Rows keep the database's snake_case names. */

/** quizTarget's answer: the child's access row and mode, and what the save needs of the video. */
export interface QuizTargetRow extends ChildAccessRow {
  interaction_mode: string;
  /** null when there is no such video */
  video_title: string | null;
  /** 1 when the video is downloaded and assigned to or claimed by the child's expert */
  in_library: number;
}

export interface AttemptRow {
  id: number;
  child_id: string;
  video_id: string;
  video_title: string;
  companion: string | null;
  interaction_mode: string;
  percentage: number | null;
  total_retries: number;
  watch_minutes: number;
  question_count: number;
  correct_count: number;
  almost_count: number;
  wrong_count: number;
  created_at: string;
  updated_at: string;
}

export interface AnswerRow {
  id: number;
  attempt_id: number;
  position: number;
  question: string;
  question_type: string | null;
  expected: string;
  user_answer: string;
  status: string | null;
  similarity: number | null;
  segment_range_start: number | null;
  segment_range_end: number | null;
  retries: number;
  extra_json: string | null;
}

export interface ChildRow {
  id: string;
  first_name: string;
  last_name: string;
  icon_key: string;
  interaction_mode: string;
  expert_id: string;
  parent_id: string | null;
  active: number;
}

export type NewAttempt = Omit<AttemptRow, 'id' | 'created_at' | 'updated_at'>;

export interface CheckpointRow {
  child_id: string;
  video_id: string;
  position_seconds: number;
  furthest_seconds: number;
  duration_seconds: number | null;
  watch_minutes: number;
  interaction_mode: string | null;
  companion: string | null;
  total_retries: number;
  details_json: string;
  updated_at: string;
}
export type NewAnswer = Omit<AnswerRow, 'id' | 'attempt_id' | 'position'>;

export interface AttemptFilter {
  childIds: string[];
  videoId?: string;
  mode?: string;
  limit?: number;
}

/** answers written per INSERT statement (see save) */
const ANSWER_ROWS_PER_INSERT = 25;
const ATTEMPT_COLUMNS = `child_id, video_id, video_title, companion, interaction_mode, percentage, total_retries,
  watch_minutes, question_count, correct_count, almost_count, wrong_count`;
/** the answer columns after attempt_id, in the order answerParams gives their values */
const ANSWER_COLUMNS = `position, question, question_type, expected, user_answer, status, similarity,
  segment_range_start, segment_range_end, retries, extra_json`;
const placeholders = (n: number) => Array(n).fill('?').join(', ');
const answerParams = (a: NewAnswer, position: number): unknown[] => [
  position,
  a.question,
  a.question_type,
  a.expected,
  a.user_answer,
  a.status,
  a.similarity,
  a.segment_range_start,
  a.segment_range_end,
  a.retries,
  a.extra_json,
];

export class AttemptsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Stores a finished attempt and its answers atomically, and removes the child's checkpoint for
   * that video (the unfinished play-through it continues) with them: one transaction, or on
   * PostgreSQL with up to 25 answers one statement (saveInOneStatement).
   */
  async save(attempt: NewAttempt, answers: NewAnswer[]): Promise<number> {
    if (this.db.engine === 'postgres' && answers.length <= ANSWER_ROWS_PER_INSERT) return this.saveInOneStatement(attempt, answers);
    return this.db.transaction(async (tx) => {
      const row = await tx.first<{ id: number }>(
        `INSERT INTO quiz_attempts (${ATTEMPT_COLUMNS})
         VALUES (@child_id, @video_id, @video_title, @companion, @interaction_mode, @percentage, @total_retries,
           @watch_minutes, @question_count, @correct_count, @almost_count, @wrong_count) RETURNING id`,
        attempt,
      );
      const id = Number(row!.id);
      // many rows per statement: on PostgreSQL each statement is a round trip, so a save of N
      // answers was N + 3 of them (bench:scale). Chunks keep the number of distinct statement
      // texts (each prepared and cached once) small and far below both engines' parameter limits.
      for (let from = 0; from < answers.length; from += ANSWER_ROWS_PER_INSERT) {
        const chunk = answers.slice(from, from + ANSWER_ROWS_PER_INSERT);
        await tx.run(
          `INSERT INTO quiz_answers (attempt_id, ${ANSWER_COLUMNS})
           VALUES ${chunk.map(() => `(${placeholders(12)})`).join(', ')}`,
          chunk.flatMap((a, i) => [id, ...answerParams(a, from + i)]),
        );
      }
      await new AttemptsRepository(tx).deleteCheckpoint(attempt.child_id, attempt.video_id);
      return id;
    });
  }

  /**
   * PostgreSQL, a save of up to 25 answers: ONE statement (data-modifying WITH clauses), atomic
   * as a transaction is, instead of five round trips (BEGIN, the attempt, its answers, the
   * checkpoint, COMMIT); at 50 connections PostgreSQL's CPU per statement decides a save's
   * throughput (docs/scaling.md). The answers take the attempt's id from the WITH clause; the
   * foreign keys are checked at the end of the statement, when the attempt row exists.
   */
  private async saveInOneStatement(attempt: NewAttempt, answers: NewAnswer[]): Promise<number> {
    const values: unknown[] = [
      attempt.child_id,
      attempt.video_id,
      attempt.video_title,
      attempt.companion,
      attempt.interaction_mode,
      attempt.percentage,
      attempt.total_retries,
      attempt.watch_minutes,
      attempt.question_count,
      attempt.correct_count,
      attempt.almost_count,
      attempt.wrong_count,
      ...answers.flatMap((a, i) => answerParams(a, i)),
      attempt.child_id,
      attempt.video_id,
    ];
    const answerRows = answers.map(() => `((SELECT id FROM attempt), ${placeholders(11)})`).join(', ');
    const insertAnswers = answers.length > 0 ? `, answers AS (INSERT INTO quiz_answers (attempt_id, ${ANSWER_COLUMNS}) VALUES ${answerRows})` : '';
    const row = await this.db.first<{ id: number }>(
      `WITH attempt AS (
         INSERT INTO quiz_attempts (${ATTEMPT_COLUMNS}) VALUES (${placeholders(12)}) RETURNING id
       )${insertAnswers}, cleared AS (
         DELETE FROM quiz_checkpoints WHERE child_id = ? AND video_id = ?
       )
       SELECT id FROM attempt`,
      values,
    );
    return Number(row!.id);
  }

  async putCheckpoint(c: Omit<CheckpointRow, 'updated_at'>): Promise<CheckpointRow> {
    await this.db.run(
      `INSERT INTO quiz_checkpoints (child_id, video_id, position_seconds, furthest_seconds, duration_seconds, watch_minutes,
         interaction_mode, companion, total_retries, details_json, updated_at)
       VALUES (@child_id, @video_id, @position_seconds, @furthest_seconds, @duration_seconds, @watch_minutes,
         @interaction_mode, @companion, @total_retries, @details_json, @now)
       ON CONFLICT (child_id, video_id) DO UPDATE SET position_seconds = excluded.position_seconds,
         furthest_seconds = excluded.furthest_seconds, duration_seconds = excluded.duration_seconds,
         watch_minutes = excluded.watch_minutes, interaction_mode = excluded.interaction_mode, companion = excluded.companion,
         total_retries = excluded.total_retries, details_json = excluded.details_json, updated_at = excluded.updated_at`,
      { ...c, now: new Date().toISOString() },
    );
    return (await this.checkpoint(c.child_id, c.video_id)) as CheckpointRow;
  }

  async checkpoint(childId: string, videoId: string): Promise<CheckpointRow | undefined> {
    return this.db.first<CheckpointRow>('SELECT * FROM quiz_checkpoints WHERE child_id = ? AND video_id = ?', [childId, videoId]);
  }

  async checkpoints(childIds: string[]): Promise<CheckpointRow[]> {
    if (childIds.length === 0) return [];
    return this.db.all<CheckpointRow>(
      `SELECT * FROM quiz_checkpoints WHERE child_id IN (${childIds.map(() => '?').join(', ')}) ORDER BY updated_at DESC, child_id, video_id`,
      childIds,
    );
  }

  async deleteCheckpoint(childId: string, videoId: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM quiz_checkpoints WHERE child_id = ? AND video_id = ?', [childId, videoId])).changes > 0;
  }

  /** Newest first. */
  async attempts(filter: AttemptFilter): Promise<AttemptRow[]> {
    if (filter.childIds.length === 0) return [];
    const where = [`child_id IN (${filter.childIds.map(() => '?').join(', ')})`];
    const params: unknown[] = [...filter.childIds];
    if (filter.videoId) {
      where.push('video_id = ?');
      params.push(filter.videoId);
    }
    if (filter.mode) {
      where.push('interaction_mode = ?');
      params.push(filter.mode);
    }
    let limit = '';
    if (filter.limit) {
      limit = ' LIMIT ?';
      params.push(filter.limit);
    }
    return this.db.all<AttemptRow>(`SELECT * FROM quiz_attempts WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC${limit}`, params);
  }

  /** Answers of the given attempts, grouped by attempt id, in the order they were given. */
  async answersByAttempt(attemptIds: number[]): Promise<Map<number, AnswerRow[]>> {
    const out = new Map<number, AnswerRow[]>();
    // Chunks stay below SQLite's bound-parameter limit.
    for (let i = 0; i < attemptIds.length; i += 500) {
      const chunk = attemptIds.slice(i, i + 500);
      const rows = await this.db.all<AnswerRow>(
        `SELECT * FROM quiz_answers WHERE attempt_id IN (${chunk.map(() => '?').join(', ')}) ORDER BY attempt_id, position`,
        chunk,
      );
      for (const row of rows) {
        const list = out.get(row.attempt_id) ?? [];
        list.push(row);
        out.set(row.attempt_id, list);
      }
    }
    return out;
  }

  /**
   * What a save checks, in ONE query (on PostgreSQL each query is a round trip; a save made four
   * before its transaction): the child's access row and mode, the video's title (null: no such
   * video), and whether the video is downloaded and in the library of the child's expert.
   */
  async quizTarget(childId: string, videoId: string): Promise<QuizTargetRow | undefined> {
    const row = await this.db.first<QuizTargetRow>(
      `SELECT ch.id, ch.expert_id, ch.parent_id, ch.active, ch.interaction_mode, v.title AS video_title,
         CASE WHEN v.state = 'downloaded' AND ${expertVideoCondition('ch.expert_id')} THEN 1 ELSE 0 END AS in_library
       FROM children ch LEFT JOIN videos v ON v.id = ?
       WHERE ch.id = ?`,
      [videoId, childId],
    );
    return row && { ...row, active: Number(row.active), in_library: Number(row.in_library) };
  }

  async expertExists(expertId: string): Promise<boolean> {
    return (await this.db.first('SELECT 1 AS found FROM experts WHERE id = ?', [expertId])) !== undefined;
  }

  /** Child profiles for reports: one child, an expert's children, or every child. */
  async children(where: { childId?: string; expertId?: string }): Promise<ChildRow[]> {
    const sql = 'SELECT id, first_name, last_name, icon_key, interaction_mode, expert_id, parent_id, active FROM children';
    if (where.childId) return this.db.all<ChildRow>(`${sql} WHERE id = ?`, [where.childId]);
    if (where.expertId) return this.db.all<ChildRow>(`${sql} WHERE expert_id = ? ORDER BY first_name, id`, [where.expertId]);
    return this.db.all<ChildRow>(`${sql} ORDER BY expert_id, first_name, id`);
  }

  /** Current titles from the videos table (a video may have been renamed or deleted since). */
  async videoTitles(videoIds: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const unique = [...new Set(videoIds)];
    for (let i = 0; i < unique.length; i += 500) {
      const chunk = unique.slice(i, i + 500);
      const rows = await this.db.all<{ id: string; title: string }>(`SELECT id, title FROM videos WHERE id IN (${chunk.map(() => '?').join(', ')})`, chunk);
      for (const r of rows) out.set(r.id, r.title);
    }
    return out;
  }
}
