// Speech in: records one spoken answer with MediaRecorder, and uses a Web Audio analyser to
// decide when the child has finished (a pause after speech), when nobody spoke (time-out), and
// a hard cap. The microphone is opened per answer and released right after, so the tablet's
// "recording" indicator is only on while the companion is listening.

const TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];

/**
 * The analyser's tunables (ms / RMS of a -1..1 signal). Documented in docs/child-experience.md.
 * The answer time limit (maxMs) and the silence that ends an answer (endSilenceMs) are the
 * server's settings: the player passes them from GET /api/config as `limits`.
 */
export const LISTEN = {
  noSpeechMs: 6000, // nobody spoke: stop and ask again
  minSpeechMs: 180, // shorter blips (a cough, a tap) do not count as speech
  floorMs: 250, // the first moments measure the room's noise
  minThreshold: 0.012,
  maxThreshold: 0.06,
};

let audioCtx = null;

/** Create/resume the AudioContext from a tap (browsers keep it suspended otherwise). */
export function unlockMic() {
  try {
    audioCtx = audioCtx || new (window.AudioContext || window.webkitAudioContext)();
    if (audioCtx.state === 'suspended') audioCtx.resume().catch(() => {});
  } catch {
    audioCtx = null;
  }
}

export function canRecord() {
  return Boolean(navigator.mediaDevices?.getUserMedia && window.MediaRecorder);
}

/**
 * Records one answer. Options: onLevel(0..1) for the meter, onSpeech() when speech starts,
 * stop: a promise that ends the recording early when it resolves ('done': the child tapped
 * "done") or cancels it ('cancel'); limits: the server's maxMs and endSilenceMs (required).
 * Resolves { blob, type, heardSpeech, speechMs, durationMs, cancelled }; rejects when there is no microphone.
 * @param {{
 *   onLevel?: (level: number) => void,
 *   onSpeech?: () => void,
 *   stop?: Promise<'done' | 'cancel'> | null,
 *   limits?: { maxMs?: number, endSilenceMs?: number },
 * }} [options]
 */
export async function recordAnswer({ onLevel = () => {}, onSpeech = () => {}, stop = null, limits = {} } = {}) {
  /** @type {typeof LISTEN & { maxMs?: number, endSilenceMs?: number }} */
  const L = { ...LISTEN, ...limits };
  if (!(L.maxMs > 0) || !(L.endSilenceMs > 0)) throw new Error('recordAnswer needs limits.maxMs and limits.endSilenceMs (GET /api/config)');
  // Measured with the local recognizer: the browser's echo cancellation and noise suppression
  // reshape a voice enough to turn "penny" into "added". Nothing plays while the microphone is
  // open (the companion has finished), so there is no echo to cancel; gain control helps quiet children.
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: true },
  });
  const type = TYPES.find((t) => MediaRecorder.isTypeSupported?.(t)) || '';
  // the browser's default bitrate (128 kb/s opus in Chromium): at 64 kb/s the recognizer already did worse
  const recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
  const chunks = [];
  recorder.ondataavailable = (e) => { if (e.data && e.data.size) chunks.push(e.data); };

  unlockMic();
  let source = null;
  let analyser = null;
  if (audioCtx) {
    if (audioCtx.state === 'suspended') await audioCtx.resume().catch(() => {});
    source = audioCtx.createMediaStreamSource(stream);
    analyser = audioCtx.createAnalyser();
    analyser.fftSize = 1024;
    source.connect(analyser);
  }

  const started = performance.now();
  let heardSpeech = false;
  let speechMs = 0;
  let voicedRun = 0;
  let quietRun = 0;
  let floorSamples = [];
  let threshold = L.minThreshold;
  let cancelled = false;

  const stopped = new Promise((resolve) => { recorder.onstop = resolve; });
  recorder.start(250);

  await new Promise((resolve) => {
    let last = performance.now();
    const data = analyser ? new Float32Array(analyser.fftSize) : null;
    const timer = setInterval(() => {
      const now = performance.now();
      const dt = now - last;
      last = now;
      const elapsed = now - started;
      let rms = 0;
      if (analyser) {
        analyser.getFloatTimeDomainData(data);
        let sum = 0;
        for (let i = 0; i < data.length; i++) sum += data[i] * data[i];
        rms = Math.sqrt(sum / data.length);
      }
      onLevel(Math.min(1, rms / (threshold * 4)));
      if (elapsed < L.floorMs) {
        floorSamples.push(rms);
      } else if (floorSamples) {
        floorSamples.sort((a, b) => a - b);
        const floor = floorSamples[Math.floor(floorSamples.length / 2)] || 0;
        threshold = Math.min(L.maxThreshold, Math.max(L.minThreshold, floor * 3));
        floorSamples = null;
      }
      const loud = rms > threshold;
      if (loud) {
        voicedRun += dt;
        quietRun = 0;
        if (voicedRun >= L.minSpeechMs) {
          if (!heardSpeech) onSpeech();
          heardSpeech = true;
        }
        if (heardSpeech) speechMs += dt;
      } else {
        voicedRun = 0;
        quietRun += dt;
      }
      const finished =
        elapsed >= L.maxMs ||
        (!analyser && elapsed >= L.noSpeechMs) ||
        (!heardSpeech && elapsed >= L.noSpeechMs) ||
        (heardSpeech && quietRun >= L.endSilenceMs);
      if (finished) end();
    }, 50);
    const end = () => {
      clearInterval(timer);
      resolve();
    };
    if (stop) {
      stop.then((how) => {
        if (how === 'cancel') cancelled = true;
        end();
      });
    }
  });

  if (recorder.state !== 'inactive') recorder.stop();
  await stopped;
  stream.getTracks().forEach((t) => t.stop());
  try {
    source?.disconnect();
  } catch {
    // already gone
  }
  onLevel(0);
  const blobType = recorder.mimeType || type || 'audio/webm';
  return {
    blob: new Blob(chunks, { type: blobType }),
    type: blobType,
    // without an analyser we cannot tell: let the recognizer decide
    heardSpeech: analyser ? heardSpeech : true,
    speechMs,
    durationMs: performance.now() - started,
    cancelled,
  };
}

/** File name extension for the recorded type (the server checks type and size). */
export function extensionFor(type) {
  if (type.includes('webm')) return 'webm';
  if (type.includes('ogg')) return 'ogg';
  if (type.includes('mp4')) return 'm4a';
  return 'webm';
}

/** A short rising "ding" that tells the child it is their turn to talk (no words needed). */
export async function cue() {
  unlockMic();
  if (!audioCtx) return;
  try {
    const t = audioCtx.currentTime;
    const osc = audioCtx.createOscillator();
    const gain = audioCtx.createGain();
    osc.type = 'sine';
    osc.frequency.setValueAtTime(660, t);
    osc.frequency.linearRampToValueAtTime(990, t + 0.12);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.18);
    osc.connect(gain).connect(audioCtx.destination);
    osc.start(t);
    osc.stop(t + 0.2);
    // let the ding fade before the microphone opens, so it is not taken for the child's voice
    await new Promise((resolve) => setTimeout(resolve, 260));
  } catch {
    // no sound: the microphone picture still shows it is listening
  }
}
