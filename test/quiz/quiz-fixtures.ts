import { expect } from 'vitest';
import { loginAdmin, type TestApp } from '../helpers/app.js';

let n = 0;

/**
 * A downloaded video in the library (the row a download would leave; no media needed here),
 * assigned to the expert through the admin API.
 */
export async function addVideo(t: TestApp, expertId: string | null, title = 'The Red Barn'): Promise<string> {
  const id = `vid${Date.now().toString(36)}${(n++).toString(36)}`.slice(0, 20);
  await t.db.run(`INSERT INTO videos (id, title, duration_seconds, state) VALUES (?, ?, 60, 'downloaded')`, [id, title]);
  if (expertId) {
    const admin = await loginAdmin(t.agent());
    const res = await admin.post('/api/admin/videos/assignments').send({ video_id: id, expert_id: expertId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return id;
}

/** A finished attempt as the player sends it. */
export function attemptBody(childId: string, videoId: string, extra: Record<string, unknown> = {}) {
  return {
    child_id: childId,
    video_id: videoId,
    total_retries: 1,
    watch_minutes: 1.5,
    interaction_mode: 'strict',
    companion: 'pig',
    details: [
      { question: 'What color was the barn?', question_type: 'setting', expected: 'red', user: 'read', status: 'correct',
        similarity: 0.95, segment_range_start: 0, segment_range_end: 20, retries: 0 },
      { question: 'Who was lost?', question_type: 'character', expected: 'the piglet', user: 'an animal', status: 'almost',
        similarity: 0.5, segment_range_start: 20, segment_range_end: 40, retries: 1 },
      { question: 'How did Daisy feel?', question_type: 'feeling', expected: 'happy', user: 'sad', status: 'wrong',
        similarity: 0, segment_range_start: 40, segment_range_end: 60, retries: 0 },
    ],
    ...extra,
  };
}

export const countRows = async (t: TestApp, table: 'quiz_attempts' | 'quiz_answers' | 'quiz_checkpoints') =>
  ((await t.db.first<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)) as { n: number }).n;
