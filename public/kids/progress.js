// Where a child is in each video: the checkpoint saved on leaving the player (resume) and the
// finished attempts (a star on the video grid). The routes belong to the quiz feature (docs/quiz.md).
import { api } from './common.js';

const enc = encodeURIComponent;
export const checkpointUrl = (childId, videoId) => `/api/quiz/checkpoints/${enc(childId)}/${enc(videoId)}`;

/** The saved checkpoint for this child and video, or null. */
export async function loadCheckpoint(childId, videoId) {
  try {
    const body = await api(checkpointUrl(childId, videoId));
    return body && body.checkpoint ? body.checkpoint : null;
  } catch {
    return null;
  }
}

/**
 * Saves a checkpoint. With beacon=true it uses navigator.sendBeacon, which survives the page
 * being closed or left (pagehide); otherwise a normal request.
 */
export function saveCheckpoint(childId, videoId, state, { beacon = false } = {}) {
  const url = checkpointUrl(childId, videoId);
  const payload = JSON.stringify(state);
  if (beacon && navigator.sendBeacon) {
    const ok = navigator.sendBeacon(url, new Blob([payload], { type: 'application/json' }));
    if (ok) return Promise.resolve(true);
  }
  return fetch(url, {
    method: 'PUT',
    credentials: 'same-origin',
    keepalive: true,
    headers: { 'Content-Type': 'application/json' },
    body: payload,
  }).then((r) => r.ok, () => false);
}

export async function clearCheckpoint(childId, videoId) {
  try {
    await api(checkpointUrl(childId, videoId), { method: 'DELETE', redirectOn401: false });
  } catch {
    // nothing saved, or already gone
  }
}

/** video_id -> { completed, fraction } for the grid's badges. */
export async function loadProgress(childId) {
  const map = new Map();
  const scores = await api(`/api/get-quiz-scores/${enc(childId)}`).catch(() => null);
  const attempts = scores && (scores.attempts || scores.scores || []);
  for (const a of Array.isArray(attempts) ? attempts : []) {
    if (a && a.video_id) map.set(a.video_id, { completed: true, fraction: 1 });
  }
  const cps = await api(`/api/quiz/checkpoints/${enc(childId)}`).catch(() => null);
  for (const c of cps && Array.isArray(cps.checkpoints) ? cps.checkpoints : []) {
    if (!c || !c.video_id || map.has(c.video_id)) continue;
    const d = Number(c.duration_seconds) || 0;
    map.set(c.video_id, { completed: false, fraction: d ? Math.min(1, (Number(c.position_seconds) || 0) / d) : 0 });
  }
  return map;
}
