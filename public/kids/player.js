// The player: plays the video, pauses at the end of each question segment, lets the companion
// ask (player-ask.js), reacts by interaction mode, saves the attempt at the end and a checkpoint
// when the child leaves, and resumes from that checkpoint.
//   strict:   almost/wrong -> replay the segment and ask again (no skipping)
//   flexible: almost/wrong -> the companion says the answer and goes on (skipping allowed)
//   passive:  no questions; the watching is still saved
import { api, initPage, mediaUrl, rememberedCompanion, showCompanion, showError, COMPANIONS } from './common.js';
import { speak, stopSpeaking, unlockAudio } from './speech.js';
import { unlockMic } from './recorder.js';
import { line } from './lines.js';
import { createVideoControls } from './player-video.js';
import { createAsker, newEntry } from './player-ask.js';
import { loadCheckpoint, saveCheckpoint, clearCheckpoint } from './progress.js';
import { finishScreen } from './player-done.js';

const ds = document.body.dataset;
const videoId = ds.videoId;
const preview = ds.preview === '1';
const playerEl = document.getElementById('player');
const video = /** @type {HTMLVideoElement} */ (document.getElementById('video'));
const loading = document.getElementById('loading');
const errorEl = document.getElementById('player-error');
const stateText = document.getElementById('player-state');

const S = {
  child: null,
  mode: 'flexible',
  companion: 'bunny',
  segments: [],
  entries: [],
  idx: 0,
  busy: false,
  started: false,
  finished: false,
  saving: false,
};

const page = initPage();
const controls = createVideoControls({ video, onBlockedSeek: () => speak(line(S.companion, 'noSkip'), { companion: S.companion }) });
let asker = null;

const STATE_TEXT = { asking: 'The friend is asking a question.', listening: 'Listening for your answer.', grading: 'Checking the answer.', done: 'The video is finished.' };
function setState(state) {
  playerEl.dataset.state = state;
  if (STATE_TEXT[state]) stateText.textContent = STATE_TEXT[state];
}

boot().catch((err) => {
  loading.hidden = true;
  showError(errorEl, 'This video cannot play right now.');
  setState('error');
  console.error(err);
});

async function boot() {
  setState('loading');
  if (!preview) {
    const session = /** @type {KvqApi.Session} */ (await api('/api/learners/session'));
    if (!session.child) return location.assign('/kids/profiles');
    S.child = session.child;
  }
  S.mode = preview ? ds.mode || 'strict' : S.child.interaction_mode || 'flexible';
  S.companion = [ds.companion, S.child && rememberedCompanion(S.child.child_id), 'bunny'].find((c) => COMPANIONS.includes(c));
  showCompanion(document, S.companion);
  playerEl.dataset.mode = S.mode;
  playerEl.dataset.companion = S.companion;

  const [config, questions, src, checkpoint] = await Promise.all([
    /** @type {Promise<KvqApi.PlayerConfig>} */ (api('/api/config')),
    /** @type {Promise<KvqApi.FinalQuestions>} */ (api(`/api/final-questions/${encodeURIComponent(videoId)}?companion=${S.companion}`)).catch(() => ({ success: false, segments: [] })),
    videoSource(),
    preview ? null : loadCheckpoint(S.child.child_id, videoId),
  ]);
  controls.setGuard(config.skip_prevention !== false);
  S.segments = (questions.segments || [])
    .filter((s) => s && s.question && s.answer && Number.isFinite(Number(s.segment_range_end)))
    .sort((a, b) => a.segment_range_end - b.segment_range_end);
  if (S.mode === 'passive') S.segments = [];
  S.entries = S.segments.map(newEntry);
  const settings = playerSettings(config);
  asker = createAsker({ companion: S.companion, mode: S.mode, videoId, setState, settings });
  // what the player listens with, readable by a grown-up's devtools and the browser tests
  Object.assign(playerEl.dataset, {
    answerLimitMs: String(settings.limits.maxMs ?? ''),
    silenceMs: String(settings.limits.endSilenceMs ?? ''),
    maxSilentRetries: String(settings.maxSilentRetries),
  });

  if (!src) throw new Error('no video file');
  video.src = src;
  await once(video, 'loadedmetadata');
  loading.hidden = true;
  controls.setMarks(S.segments);
  if (checkpoint) resume(checkpoint);
  setState('ready');
  page.sayInstruction();
}

/** How long to listen and how often to ask again: the server's settings (GET /api/config). */
function playerSettings(config) {
  const seconds = (v) => (Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) * 1000 : undefined);
  const limits = {};
  if (seconds(config.answer_time_limit_seconds)) limits.maxMs = seconds(config.answer_time_limit_seconds);
  if (seconds(config.silence_seconds)) limits.endSilenceMs = seconds(config.silence_seconds);
  return {
    maxSilentRetries: Number(config.max_silent_retries) || 0,
    maxStrictReplays: Number(config.max_strict_replays) || 0,
    limits,
  };
}

/** The file URL from the child's (or, in a preview, the staff's) video listing. */
async function videoSource() {
  const lists = preview ? ['/api/kids_videos', '/api/videos-list'] : ['/api/kids_videos'];
  for (const url of lists) {
    const body = /** @type {KvqApi.KidsVideos | null} */ (await api(url, { redirectOn401: false }).catch(() => null));
    const v = body && Array.isArray(body.videos) ? body.videos.find((x) => (x.video_id ?? x.id) === videoId) : null;
    if (v) {
      if (v.thumbnail) video.poster = mediaUrl(videoId, v.thumbnail);
      return mediaUrl(videoId, v.local_path || v.videoUrl);
    }
  }
  return null;
}

function resume(cp) {
  const pos = Math.max(0, Math.min(Number(cp.position_seconds) || 0, (video.duration || 0) - 1));
  controls.setFurthest(Math.max(pos, Number(cp.furthest_seconds) || 0));
  controls.addWatchedMs((Number(cp.watch_minutes) || 0) * 60000);
  for (const saved of Array.isArray(cp.details) ? cp.details : []) {
    const i = S.entries.findIndex((e) => Math.round(e.segment_range_end) === Math.round(saved.segment_range_end) && e.status === null);
    if (i >= 0 && saved.status) Object.assign(S.entries[i], saved);
  }
  // questions before the resume point that were answered are done; unanswered ones are asked again
  S.idx = S.entries.findIndex((e) => e.status === null || e.segment_range_end > pos);
  if (S.idx < 0) S.idx = S.entries.length;
  S.entries.forEach((e, i) => controls.markStatus(i, e.status));
  const back = S.idx < S.segments.length ? Math.min(pos, S.segments[S.idx].segment_range_end - 0.5) : pos;
  video.currentTime = Math.max(0, back);
  controls.render();
}

// ---- playing and pausing at the question points --------------------------------------------

async function start() {
  stopSpeaking();
  unlockAudio();
  unlockMic();
  S.started = true;
  try {
    await video.play();
  } catch {
    controls.bigPlay.hidden = false;
  }
}

controls.bigPlay.addEventListener('click', start);
controls.toggle.addEventListener('click', () => {
  if (S.busy) return;
  if (video.paused) start();
  else video.pause();
});
video.addEventListener('click', () => {
  if (!S.busy && !video.paused) video.pause();
});
video.addEventListener('play', () => setState('playing'));
video.addEventListener('pause', () => {
  if (!S.busy && !S.finished) {
    setState('paused');
    controls.bigPlay.hidden = false;
  }
});
video.addEventListener('timeupdate', check);
video.addEventListener('ended', onEnded);

function tick() {
  check();
  if (!video.paused) requestAnimationFrame(tick);
}
video.addEventListener('playing', () => requestAnimationFrame(tick));

function check() {
  if (S.busy || video.paused || S.finished) return;
  const seg = S.segments[S.idx];
  if (seg && video.currentTime >= seg.segment_range_end - 0.1) pauseFor(S.idx);
}

async function pauseFor(i) {
  S.busy = true;
  video.pause();
  controls.lock(true);
  const seg = S.segments[i];
  let next;
  try {
    next = await asker.ask(seg, S.entries[i]);
  } catch (err) {
    // a bug must not leave the child stuck on a paused video
    console.error(err);
    next = 'next';
  } finally {
    asker.close();
    controls.lock(false);
  }
  controls.markStatus(i, S.entries[i].status);
  if (next === 'replay') {
    setState('replaying');
    video.currentTime = Math.max(0, seg.segment_range_start);
    S.busy = false;
    await start();
    return 'replay';
  }
  S.idx = i + 1;
  S.busy = false;
  if (video.ended || video.currentTime >= (video.duration || Infinity) - 0.15) {
    await onEnded();
  } else {
    await start();
  }
  return 'next';
}

async function onEnded() {
  if (S.busy || S.finished) return;
  // a question whose segment ends at (or after) the video's end is asked now
  if (S.idx < S.segments.length) {
    await pauseFor(S.idx);
    return;
  }
  await finish();
}

// ---- the end: save the attempt, celebrate ----------------------------------------------------

async function finish() {
  S.finished = true;
  setState('done');
  const attempt = buildAttempt();
  let saved = preview ? 'preview' : 'no';
  if (!preview) {
    saved = (await saveAttempt(attempt)) ? 'yes' : 'no';
    if (saved === 'yes') await clearCheckpoint(S.child.child_id, videoId);
  }
  playerEl.dataset.saved = saved;
  finishScreen({ companion: S.companion, attempt, saved, preview, onAgain: again });
  await speak(line(S.companion, 'finish'), { companion: S.companion });
}

function buildAttempt() {
  const asked = S.entries.filter((e) => e.status !== null);
  const points = asked.reduce((n, e) => n + (e.status === 'correct' ? 1 : e.status === 'almost' ? 0.5 : 0), 0);
  const attempt = {
    child_id: S.child ? S.child.child_id : null,
    video_id: videoId,
    total_retries: S.entries.reduce((n, e) => n + e.retries, 0),
    watch_minutes: Math.round((controls.watchedMs() / 60000) * 100) / 100,
    interaction_mode: S.mode,
    companion: S.companion,
    details: asked,
  };
  if (asked.length) attempt.percentage = Math.round((points / asked.length) * 1000) / 10;
  return attempt;
}

async function saveAttempt(attempt) {
  for (let tryNo = 0; tryNo < 3; tryNo++) {
    try {
      await api('/api/save-quiz-score', { method: 'POST', json: attempt });
      return true;
    } catch (err) {
      if (err.status && err.status < 500) return false;
      await new Promise((r) => setTimeout(r, 1000 * (tryNo + 1)));
    }
  }
  return false;
}

function again() {
  S.finished = false;
  S.idx = 0;
  S.entries = S.segments.map(newEntry);
  S.entries.forEach((_, i) => controls.markStatus(i, null));
  controls.resetWatched();
  video.currentTime = 0;
  start();
}

// ---- leaving: a checkpoint to resume from ---------------------------------------------------

function checkpoint(beacon) {
  if (preview || !S.child || !S.started || S.finished) return;
  saveCheckpoint(
    S.child.child_id,
    videoId,
    {
      position_seconds: Math.round((video.currentTime || 0) * 10) / 10,
      furthest_seconds: Math.round(controls.furthest * 10) / 10,
      duration_seconds: Math.round((video.duration || 0) * 10) / 10,
      watch_minutes: Math.round((controls.watchedMs() / 60000) * 100) / 100,
      interaction_mode: S.mode,
      companion: S.companion,
      details: S.entries.filter((e) => e.status !== null),
    },
    { beacon },
  );
}
window.addEventListener('pagehide', () => checkpoint(true));
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') {
    if (!video.paused && !S.busy) video.pause();
    checkpoint(true);
  }
});

function once(target, event) {
  return new Promise((resolve, reject) => {
    if (event === 'loadedmetadata' && target.readyState >= 1) return resolve();
    target.addEventListener(event, resolve, { once: true });
    target.addEventListener('error', () => reject(new Error(`${event} failed`)), { once: true });
  });
}
