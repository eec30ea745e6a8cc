import fs from 'node:fs';
import type { Db } from '../db/database.js';
import { VIDEO_ID_RE, safeJoin } from '../http/ids.js';

/** The JSON export's file name inside `dataDir/videos/<video_id>/`. */
export const QUESTION_EXPORT_FILE = 'questions.json';

/**
 * Question counts per video, for the library listings:
 * - `generated`: AI questions in successfully generated segments;
 * - `final`: finalized segments that serve a child a question (one question each).
 * Videos without any questions are absent from the map.
 */
export function questionCountsByVideo(db: Db): Map<string, { generated: number; final: number }> {
  const counts = new Map<string, { generated: number; final: number }>();
  const generated = db.allSync<{ video_id: string; n: number }>(
    `SELECT video_id, COALESCE(SUM(json_array_length(questions_json)), 0) AS n
       FROM question_segments WHERE status = 'ok' GROUP BY video_id`,
  );
  for (const r of generated) counts.set(r.video_id, { generated: r.n, final: 0 });
  const final = db.allSync<{ video_id: string; n: number }>(
    `SELECT s.video_id, COUNT(*) AS n FROM review_segments s
      WHERE s.finalized = 1 AND EXISTS (
        SELECT 1 FROM review_questions q
         WHERE q.video_id = s.video_id AND q.start_seconds = s.start_seconds
           AND q.end_seconds = s.end_seconds AND q.trashed = 0)
      GROUP BY s.video_id`,
  );
  for (const r of final) {
    const c = counts.get(r.video_id) ?? { generated: 0, final: 0 };
    c.final = r.n;
    counts.set(r.video_id, c);
  }
  return counts;
}

/** Where the JSON export of a video's questions lives (whether or not it exists). */
export function questionExportPath(dataDir: string, videoId: string): string {
  if (!VIDEO_ID_RE.test(videoId)) throw new Error(`invalid video id ${JSON.stringify(videoId)}`);
  return safeJoin(dataDir, 'videos', videoId, QUESTION_EXPORT_FILE);
}

/** The path of the JSON export written by POST /api/submit-questions, or null when there is none. */
export function questionFilePath(dataDir: string, videoId: string): string | null {
  if (!VIDEO_ID_RE.test(videoId)) return null;
  const file = questionExportPath(dataDir, videoId);
  return fs.existsSync(file) ? file : null;
}
