import fs from 'node:fs';
import type { Database } from '../db/database.js';
import { finalSegmentCounts } from './final.repository.js';
import { generatedQuestionCounts } from './segments.repository.js';
import { VIDEO_ID_RE, safeJoin } from '../http/ids.js';

/** The JSON export's file name inside `dataDir/videos/<video_id>/`. */
export const QUESTION_EXPORT_FILE = 'questions.json';

/**
 * Question counts per video, for the library listings:
 * - `generated`: AI questions in successfully generated segments;
 * - `final`: finalized segments that serve a child a question (one question each).
 * Videos without any questions are absent from the map.
 */
export async function questionCountsByVideo(db: Database): Promise<Map<string, { generated: number; final: number }>> {
  const counts = new Map<string, { generated: number; final: number }>();
  for (const [videoId, n] of await generatedQuestionCounts(db)) counts.set(videoId, { generated: n, final: 0 });
  for (const r of await finalSegmentCounts(db)) {
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
