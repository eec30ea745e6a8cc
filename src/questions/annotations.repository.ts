import type { Database } from '../db/database.js';

/**
 * SQL for expert annotations. A note is keyed by video, segment, question and author; a note on
 * the whole video stores -1 as its segment and 0 as its question (primary key columns are NOT NULL).
 */

export interface AnnotationKey {
  videoId: string;
  start: number;
  end: number;
  questionId: number;
  author: string;
}

export interface AnnotationRow {
  start_seconds: number;
  end_seconds: number;
  question_id: number;
  author: string;
  note: string;
  updated_at: string;
}

export async function putAnnotation(db: Database, k: AnnotationKey, note: string): Promise<void> {
  await db.run(
    `INSERT INTO expert_annotations (video_id, start_seconds, end_seconds, question_id, author, note) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (video_id, start_seconds, end_seconds, question_id, author)
     DO UPDATE SET note = excluded.note, updated_at = ?`,
    [k.videoId, k.start, k.end, k.questionId, k.author, note, new Date().toISOString()],
  );
}

export async function deleteAnnotation(db: Database, k: AnnotationKey): Promise<void> {
  await db.run('DELETE FROM expert_annotations WHERE video_id = ? AND start_seconds = ? AND end_seconds = ? AND question_id = ? AND author = ?', [
    k.videoId, k.start, k.end, k.questionId, k.author,
  ]);
}

export async function listAnnotationRows(db: Database, videoId: string): Promise<AnnotationRow[]> {
  return db.all<AnnotationRow>(
    `SELECT start_seconds, end_seconds, question_id, author, note, updated_at FROM expert_annotations
      WHERE video_id = ? ORDER BY start_seconds, end_seconds, question_id, author`,
    [videoId],
  );
}
