// One question at a pause: the companion asks aloud, listens (MediaRecorder), the answer is
// transcribed (/api/transcribe) and graded (/api/check_answer), and the companion reacts by the
// child's interaction mode. Returns what the player should do next: 'next' or 'replay'.
import { api, announce, svgUse } from './common.js';
import { speak, stopSpeaking } from './speech.js';
import { recordAnswer, extensionFor, canRecord, cue } from './recorder.js';
import { line } from './lines.js';

const $ = (id) => document.getElementById(id);

/**
 * settings come from GET /api/config (the server's values, never copies of them here):
 *   maxSilentRetries  "I did not hear you" this many times, then the question counts as unanswered
 *   maxStrictReplays  strict mode replays a segment at most this many times, then tells the answer
 *   limits            the recorder's { maxMs, endSilenceMs } (answer time limit, silence length)
 */
export function createAsker({ companion, mode, videoId, setState, settings }) {
  const dialog = $('ask');
  const bubble = $('ask-question');
  const mic = $('mic');
  const level = $('mic-level');
  const feedback = $('feedback');
  const heard = $('heard');
  const repeatBtn = $('ask-repeat');
  const answerBtn = $('ask-answer');
  const typeBtn = $('ask-type');
  const skipBtn = $('ask-skip');
  const typeForm = $('type-form');
  const typeInput = /** @type {HTMLInputElement} */ ($('type-input'));
  const face = () => dialog.querySelector(`.companion[data-companion="${companion}"]`);

  // The child (or a grown-up) can act while the companion listens: these resolve the wait.
  let pending = null; // { resolve(action) }
  const act = (action) => pending?.resolve(action);
  let currentQuestion = '';
  let closed = false;

  repeatBtn.addEventListener('click', () => act({ kind: 'repeat' }));
  answerBtn.addEventListener('click', () => act({ kind: 'answer-now' }));
  skipBtn.addEventListener('click', () => act({ kind: 'skip' }));
  typeBtn.addEventListener('click', () => {
    const open = typeForm.hidden;
    typeForm.hidden = !open;
    typeBtn.setAttribute('aria-expanded', String(open));
    if (open) typeInput.focus();
  });
  typeForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = typeInput.value.trim();
    if (text) act({ kind: 'typed', text });
  });

  /** Says one line, or several one after another (each fixed line has its own pre-rendered clip). */
  async function say(text, mood = null) {
    const f = face();
    f?.classList.remove('is-happy', 'is-sad', 'is-thinking', 'is-listening');
    if (mood) f?.classList.add(mood);
    let last = null;
    for (const part of Array.isArray(text) ? text : [text]) {
      last = await speak(part, { companion });
      if (!last.ok && last.via === 'none' && closed) break;
    }
    return last;
  }

  /**
   * Says text, then listens. A child who already knows the answer can tap the microphone while the
   * companion is still talking: the speech stops and listening starts at once. "Hear it again",
   * "skip" and a typed answer work during the speech too.
   */
  async function speakThenListen(text, seg) {
    for (;;) {
      setState('asking');
      const tapped = new Promise((resolve) => { pending = { resolve }; });
      const action = await Promise.race([say(text).then(() => null), tapped]);
      pending = null;
      if (!action) return takeAnswer(seg);
      stopSpeaking();
      if (action.kind === 'answer-now') return takeAnswer(seg);
      if (action.kind === 'repeat') {
        text = currentQuestion;
        continue;
      }
      return action;
    }
  }

  /** A picture for the outcome: a tick, a star for "almost", a replay arrow (strict) or a light bulb (the answer is told). */
  function showFeedback(status, icon) {
    feedback.className = `feedback is-${status}`;
    feedback.replaceChildren(svgUse(icon));
    feedback.dataset.status = status;
    mic.hidden = true;
    dialog.classList.add('is-feedback');
  }

  function resetView(seg) {
    bubble.textContent = seg.question;
    heard.textContent = '';
    feedback.className = 'feedback';
    feedback.replaceChildren();
    delete feedback.dataset.status;
    mic.hidden = false;
    mic.className = 'mic';
    dialog.classList.remove('is-feedback');
    typeInput.value = '';
    typeForm.hidden = true;
    typeBtn.setAttribute('aria-expanded', 'false');
    // flexible and passive allow skipping; strict never does
    skipBtn.hidden = mode === 'strict';
  }

  /** Records until the child stops talking, or a button ends the wait; then transcribes. */
  async function takeAnswer(seg) {
    if (!canRecord()) return waitForTyping();
    /** @type {(how: 'done' | 'cancel') => void} */
    let stopRecording;
    const stop = new Promise((resolve) => { stopRecording = resolve; });
    const actions = new Promise((resolve) => { pending = { resolve }; });
    setState('listening');
    mic.className = 'mic is-on';
    face()?.classList.add('is-listening');
    await cue();
    let recording;
    try {
      recording = recordAnswer({
        limits: settings.limits,
        onLevel: (v) => { level.style.width = `${Math.round(v * 80)}px`; },
        onSpeech: () => announce('Listening'),
        stop,
      });
    } catch {
      recording = Promise.reject(new Error('no microphone'));
    }
    const first = await Promise.race([
      recording.then((r) => ({ kind: 'recorded', r }), (err) => ({ kind: 'no-mic', err })),
      actions,
    ]);
    pending = null;
    face()?.classList.remove('is-listening');
    mic.className = 'mic';
    if (first.kind === 'no-mic') return waitForTyping();
    if (first.kind !== 'recorded') {
      // a button: stop the microphone, and keep the recording only for "answer now" (= I am done)
      stopRecording(first.kind === 'answer-now' ? 'done' : 'cancel');
      const r = await recording.catch(() => null);
      if (first.kind === 'answer-now' && r) return transcribe(seg, r);
      return first;
    }
    return transcribe(seg, first.r);
  }

  async function waitForTyping() {
    typeForm.hidden = false;
    typeBtn.setAttribute('aria-expanded', 'true');
    typeInput.focus();
    const a = await new Promise((resolve) => { pending = { resolve }; });
    pending = null;
    return a;
  }

  async function transcribe(seg, r) {
    if (r.cancelled) return { kind: 'cancel' };
    if (!r.heardSpeech) return { kind: 'silence' };
    setState('transcribing');
    mic.className = 'mic is-busy';
    face()?.classList.add('is-thinking');
    const form = new FormData();
    form.append('file', r.blob, `answer.${extensionFor(r.type)}`);
    form.append('video_id', videoId);
    form.append('segment_start', String(Math.max(0, Math.round(Number(seg.segment_range_start) || 0))));
    try {
      const body = /** @type {KvqApi.Transcription} */ (await api('/api/transcribe', { method: 'POST', form }));
      if (!body || body.success === false) throw Object.assign(new Error(body?.error || 'transcription failed'), { body });
      const text = (typeof body.text === 'string' ? body.text : '').trim();
      return text ? { kind: 'typed', text, via: 'voice' } : { kind: 'silence' };
    } catch (err) {
      // No recognizer, bad audio, provider down: a grown-up can type instead.
      typeForm.hidden = false;
      typeBtn.setAttribute('aria-expanded', 'true');
      return { kind: 'error', message: err?.body?.error || err?.message || 'transcription failed' };
    } finally {
      mic.className = 'mic';
      face()?.classList.remove('is-thinking');
    }
  }

  /**
   * @param {KvqApi.FinalSegment} seg
   * @param {string} text
   * @returns {Promise<KvqApi.Grade>}
   */
  async function grade(seg, text) {
    setState('grading');
    try {
      return await api('/api/check_answer', {
        method: 'POST',
        json: { expected: seg.answer, user: text, question: seg.question },
      });
    } catch {
      // grading unavailable: a plain comparison, so the quiz can go on
      const norm = (s) => s.toLowerCase().replace(/[^a-z0-9 ]/g, '').trim();
      const ok = norm(text) === norm(seg.answer);
      return { status: ok ? 'correct' : 'wrong', similarity: ok ? 1 : 0, user: text, expected: seg.answer, reason: 'graded offline' };
    }
  }

  /**
   * Asks seg's question and records every try in entry (see newEntry). Returns 'next' or 'replay'.
   */
  async function ask(seg, entry) {
    currentQuestion = seg.question;
    closed = false;
    resetView(seg);
    dialog.hidden = false;
    setState('asking');
    announce(seg.question);
    dialog.focus?.();
    let silences = 0;
    let result = null;
    let a = await speakThenListen(seg.question, seg);
    while (!result) {
      if (a.kind === 'repeat') {
        a = await speakThenListen(currentQuestion, seg);
        continue;
      }
      if (a.kind === 'cancel' || a.kind === 'answer-now') {
        a = await takeAnswer(seg);
        continue;
      }
      if (a.kind === 'skip') {
        result = { status: 'wrong', user: '', similarity: 0, reason: 'skipped', skipped: true };
        break;
      }
      if (a.kind === 'silence' || a.kind === 'error') {
        silences += 1;
        if (silences <= settings.maxSilentRetries) {
          heard.textContent = '';
          a = await speakThenListen(line(companion, 'didntHear'), seg);
          continue;
        }
        result = { status: 'wrong', user: '', similarity: 0, reason: a.kind === 'error' ? a.message : 'no answer heard' };
        break;
      }
      heard.textContent = `“${a.text}”`;
      const g = await grade(seg, a.text);
      result = { status: g.status, user: a.text, similarity: Number(g.similarity) || 0, reason: g.reason || '' };
    }
    recordTry(entry, result);
    return react(seg, entry, result);
  }

  async function react(seg, entry, result) {
    setState('feedback');
    const replay = result.status !== 'correct' && !result.skipped && mode === 'strict' && entry.retries < settings.maxStrictReplays;
    const status = result.skipped ? 'skipped' : result.status;
    showFeedback(status, status === 'correct' ? 'ui-check' : replay ? 'ui-replay' : status === 'almost' ? 'icon-star' : 'ui-bulb');
    announce(result.status === 'correct' ? 'Correct!' : result.status === 'almost' ? 'Almost!' : `The answer is ${seg.answer}`);
    if (result.status === 'correct') {
      await say(line(companion, 'correct'), 'is-happy');
      return 'next';
    }
    if (result.skipped) {
      await say(line(companion, 'skipped', seg.answer));
      return 'next';
    }
    const opener = line(companion, result.status === 'almost' ? 'almost' : 'wrong');
    if (replay) {
      entry.retries += 1;
      await say([opener, line(companion, 'replay')]);
      return 'replay';
    }
    await say([opener, line(companion, 'tell', seg.answer), line(companion, 'onward')]);
    return 'next';
  }

  return {
    ask,
    close() {
      closed = true;
      pending = null;
      stopSpeaking();
      dialog.hidden = true;
    },
    say,
  };
}

/** The per-question record saved with the attempt (details[] of /api/save-quiz-score). */
export function newEntry(seg) {
  return {
    question: seg.question,
    question_type: seg.question_type || '',
    expected: seg.answer,
    user: '',
    status: null,
    similarity: 0,
    segment_range_start: seg.segment_range_start,
    segment_range_end: seg.segment_range_end,
    retries: 0,
    attempts: [],
  };
}

/**
 * The first try is the score (what the child understood on first watching); later tries after a
 * strict replay are kept in attempts[] and final_status.
 */
function recordTry(entry, result) {
  entry.attempts.push({ user: result.user, status: result.skipped ? 'skipped' : result.status, similarity: result.similarity });
  if (entry.status === null) {
    entry.status = result.skipped ? 'skipped' : result.status;
    entry.user = result.user;
    entry.similarity = result.similarity;
    entry.reason = result.reason;
  } else {
    // the server keeps flat values only: the later tries' words as one string
    entry.later_answers = entry.attempts.slice(1).map((a) => a.user || '…').join(' | ');
  }
  entry.final_status = result.skipped ? 'skipped' : result.status;
}
