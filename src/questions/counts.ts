import type { Database } from '../db/database.js';
import { finalSegmentCounts } from './final.repository.js';
import { generatedQuestionCounts } from './segments.repository.js';

/** The JSON export's file name beside the video's media (`videos/<video_id>/` in the media store; see export.ts). */
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
