// Speech out, in the companion's voice: a fixed line plays its pre-rendered clip (the page lists
// them); anything else (a question, "the answer is …") asks the service's /api/tts when the page
// has a session; the browser's own voice (speechSynthesis) is the fallback. One <audio> element is
// reused so that a tablet which allowed sound once (after a tap) keeps allowing it.
import { KIDS, companionProfile } from './kids-data.js';

const MIME = { mp3: 'audio/mpeg', wav: 'audio/wav', opus: 'audio/ogg', ogg: 'audio/ogg', aac: 'audio/aac', flac: 'audio/flac' };
const memory = new Map();

let audioEl = null;
const inFlight = new Set(); // /api/tts requests not answered yet
let unlocked = false;
let current = null; // { token, finish() } of the speech now playing

/** What was spoken, newest last (kept short): lets a grown-up or a browser test see what the companion said. */
export const spokenLog = [];
window.kidsSpeech = spokenLog;

/** Call from a tap handler: plays a silent clip so later (untapped) speech is allowed. */
export function unlockAudio() {
  if (unlocked) return;
  unlocked = true;
  const a = element();
  a.muted = true;
  a.src = silentWav();
  a.play().catch(() => {}).finally(() => { a.muted = false; });
}

/**
 * Resolves when no /api/tts request is on its way (at most maxMs). Call before a request that
 * changes the session (picking a profile, logging out): a slower request that started earlier
 * can end after it and write its older copy of the session back.
 */
export function ttsIdle(maxMs = 8000) {
  const all = Promise.allSettled([...inFlight]);
  return Promise.race([all, new Promise((resolve) => setTimeout(resolve, maxMs))]);
}

export function stopSpeaking() {
  if (current) current.finish(false);
  current = null;
  if (audioEl) audioEl.pause();
  if ('speechSynthesis' in window) window.speechSynthesis.cancel();
}

/**
 * Says text, in the companion's voice when one is given. Resolves when done (or replaced by newer
 * speech) with { ok, via: 'tts' | 'browser' | 'none' }; never rejects.
 */
export async function speak(text, { companion = null } = {}) {
  stopSpeaking();
  const token = {};
  /** @type {(v?: unknown) => void} */
  let finish = () => {};
  current = { token, finish: (v) => finish(v) };
  const faces = companion ? [...document.querySelectorAll(`.companion[data-companion="${companion}"]`)] : [];
  const setTalking = (on) => faces.forEach((f) => f.classList.toggle('is-talking', on));
  const entry = { text, companion, via: 'none', at: Date.now() };
  spokenLog.push(entry);
  if (spokenLog.length > 50) spokenLog.shift();
  try {
    const url = await ttsUrl(text, companion);
    if (current?.token !== token) return { ok: false, via: 'none' };
    if (url) {
      const ok = await playUrl(url, token, setTalking, (f) => { finish = f; });
      if (ok) {
        entry.via = 'tts';
        return { ok: true, via: 'tts' };
      }
      if (current?.token !== token) return { ok: false, via: 'none' };
    }
    const ok = await browserSpeak(text, companion, setTalking, (f) => { finish = f; });
    entry.via = ok ? 'browser' : 'none';
    return { ok, via: entry.via };
  } finally {
    setTalking(false);
    if (current?.token === token) current = null;
  }
}

async function ttsUrl(text, companion) {
  const key = `${companion || '-'}|${text}`;
  if (KIDS.voice[key]) return KIDS.voice[key];
  if (memory.has(key)) return memory.get(key);
  const stored = readStored(key);
  if (stored) {
    memory.set(key, stored);
    return stored;
  }
  // no session (the login page): POST /api/tts would only answer 401
  if (!KIDS.tts) return null;
  try {
    const body = { text, format: 'mp3' };
    if (companion) body.companion = companion;
    const request = fetch('/api/tts', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    }).then(async (res) => (res.ok ? res.json() : null));
    inFlight.add(request);
    const data = await request.finally(() => inFlight.delete(request));
    if (!data || data.success === false || !data.audio) return null;
    const url = `data:${MIME[data.format] || 'audio/mpeg'};base64,${data.audio}`;
    memory.set(key, url);
    writeStored(key, url);
    return url;
  } catch {
    return null;
  }
}

function playUrl(url, token, setTalking, setFinish) {
  const a = element();
  return new Promise((resolve) => {
    let timer = null;
    const done = (ok) => {
      clearTimeout(timer);
      a.removeEventListener('ended', onEnded);
      a.removeEventListener('error', onError);
      a.removeEventListener('playing', onPlaying);
      a.removeEventListener('loadedmetadata', onMeta);
      setTalking(false);
      resolve(ok);
    };
    const onEnded = () => done(true);
    const onError = () => done(false);
    const onPlaying = () => setTalking(true);
    // a stuck element must not hang the quiz: give up a little after the clip's length
    const onMeta = () => {
      clearTimeout(timer);
      const ms = Number.isFinite(a.duration) ? a.duration * 1000 + 2500 : 30000;
      timer = setTimeout(() => done(true), ms);
    };
    setFinish(done);
    a.addEventListener('ended', onEnded);
    a.addEventListener('error', onError);
    a.addEventListener('playing', onPlaying);
    a.addEventListener('loadedmetadata', onMeta);
    timer = setTimeout(() => done(false), 30000);
    a.src = url;
    a.play().catch(() => done(false));
    if (current?.token !== token) done(false);
  });
}

function browserSpeak(text, companion, setTalking, setFinish) {
  if (!('speechSynthesis' in window) || typeof SpeechSynthesisUtterance === 'undefined') return Promise.resolve(false);
  return new Promise((resolve) => {
    const u = new SpeechSynthesisUtterance(text);
    u.lang = 'en-US';
    u.rate = 0.85;
    u.pitch = companion ? companionProfile(companion)?.pitch ?? 1 : 1;
    const voice = window.speechSynthesis.getVoices().find((v) => v.lang && v.lang.startsWith('en'));
    if (voice) u.voice = voice;
    let started = false;
    const done = (ok) => {
      clearTimeout(timer);
      setTalking(false);
      resolve(ok);
    };
    setFinish(done);
    u.onstart = () => {
      started = true;
      setTalking(true);
    };
    u.onend = () => done(started);
    u.onerror = () => done(false);
    // some browsers (and headless ones) never fire end: bound the wait by the text's length
    const timer = setTimeout(() => done(started), 2500 + text.split(/\s+/).length * 550);
    window.speechSynthesis.speak(u);
  });
}

function element() {
  if (!audioEl) {
    audioEl = new Audio();
    audioEl.preload = 'auto';
    audioEl.id = 'kids-voice';
    audioEl.hidden = true;
    document.body.append(audioEl);
  }
  return audioEl;
}

// Short sentences only, per tab: saves re-synthesizing the page instructions on every visit.
function readStored(key) {
  try {
    return key.length < 300 ? sessionStorage.getItem(`kids.tts.${key}`) : null;
  } catch {
    return null;
  }
}

function writeStored(key, url) {
  try {
    if (key.length < 300 && url.length < 400_000) sessionStorage.setItem(`kids.tts.${key}`, url);
  } catch {
    // storage full or disabled: the in-memory copy is enough
  }
}

/** 0.1 s of 8 kHz silence as a WAV data URL. */
function silentWav() {
  const samples = 800;
  const buf = new DataView(new ArrayBuffer(44 + samples));
  const str = (o, s) => [...s].forEach((c, i) => buf.setUint8(o + i, c.charCodeAt(0)));
  str(0, 'RIFF'); buf.setUint32(4, 36 + samples, true); str(8, 'WAVEfmt ');
  buf.setUint32(16, 16, true); buf.setUint16(20, 1, true); buf.setUint16(22, 1, true);
  buf.setUint32(24, 8000, true); buf.setUint32(28, 8000, true); buf.setUint16(32, 1, true); buf.setUint16(34, 8, true);
  str(36, 'data'); buf.setUint32(40, samples, true);
  for (let i = 0; i < samples; i++) buf.setUint8(44 + i, 128);
  let bin = '';
  new Uint8Array(buf.buffer).forEach((b) => { bin += String.fromCharCode(b); });
  return `data:audio/wav;base64,${btoa(bin)}`;
}
