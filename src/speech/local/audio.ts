/**
 * Audio preparation for the local recognizer: the ffmpeg arguments that turn any upload
 * (webm/opus from MediaRecorder, mp3, wav, ogg...) into the 16 kHz mono 16-bit raw PCM
 * pocketsphinx needs (at 22 kHz it hears nothing), a reader for it, and a level analysis that tells
 * silence and steady noise from speech before any decoding. Pure functions.
 */

export const SAMPLE_RATE = 16_000;
/** answers are short; longer uploads are cut (the decoder's time grows with the audio) */
export const MAX_AUDIO_SECONDS = 30;

export function toRecognizerPcmArgs(input: string, output: string, maxSeconds = MAX_AUDIO_SECONDS): string[] {
  return [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-y',
    '-i', input,
    '-vn', '-map', '0:a:0',
    '-t', String(maxSeconds),
    '-ac', '1', '-ar', String(SAMPLE_RATE),
    '-f', 's16le', output,
  ];
}

/** The samples of raw 16-bit little-endian PCM (what toRecognizerPcmArgs writes). */
export function readPcm16(buf: Buffer): Int16Array {
  const copy = Buffer.from(buf.subarray(0, buf.length - (buf.length % 2)));
  return new Int16Array(copy.buffer, copy.byteOffset, copy.length / 2);
}

/**
 * The recording with a noise floor of about -77 dBFS added, the same on every call. Batch
 * decoding normalizes each recording by its own cepstral mean; stretches of digital silence
 * (exact zeros: synthesized speech, a muted or just-opened microphone, codec silence) have an
 * energy of minus infinity, drag that mean far from anything in the model's training audio, and
 * the words around them were lost ("pikachu" heard as "to"). A floor this low (two to three
 * bits) is enough; at -60 dBFS it changed the high voices' transcripts (docs/speech.md). Any real
 * microphone's own floor is louder than this, so real recordings do not change.
 */
export function withNoiseFloor(samples: Int16Array): Int16Array {
  const out = new Int16Array(samples.length);
  let seed = 0x2545f491;
  for (let i = 0; i < samples.length; i++) {
    // xorshift32: cheap and deterministic
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    const noise = Math.round(((seed >>> 0) / 0xffffffff - 0.5) * 2 * NOISE_FLOOR_PEAK);
    out[i] = Math.max(-32768, Math.min(32767, samples[i]! + noise));
  }
  return out;
}

/** uniform noise of this peak (in 16-bit units) has an RMS of about -77 dBFS */
const NOISE_FLOOR_PEAK = 8;

export interface Levels {
  durationMs: number;
  /** loudest 20 ms frame, dBFS */
  peakDb: number;
  /** the quiet background: the 10th percentile frame, dBFS */
  floorDb: number;
  /** how long the audio stands clearly above both the floor and an absolute minimum */
  activeMs: number;
  /** where the first and the last such frame start, in ms (-1 when there is none) */
  firstActiveMs: number;
  lastActiveMs: number;
}

export interface SpeechGate {
  /** below this peak the recording is silence, whatever its shape */
  minPeakDb: number;
  /** a frame counts as active this far above the floor... */
  aboveFloorDb: number;
  /** ...and above this absolute level */
  minActiveDb: number;
  /** the shortest answer ("no", "six") lasts about this long */
  minActiveMs: number;
}

export const DEFAULT_GATE: SpeechGate = { minPeakDb: -45, aboveFloorDb: 12, minActiveDb: -50, minActiveMs: 120 };

const FRAME_MS = 20;

export function measureLevels(samples: Int16Array, sampleRate = SAMPLE_RATE, gate: SpeechGate = DEFAULT_GATE): Levels {
  const frameLen = Math.max(1, Math.round((sampleRate * FRAME_MS) / 1000));
  const dbs: number[] = [];
  for (let start = 0; start + frameLen <= samples.length; start += frameLen) {
    let sum = 0;
    for (let i = start; i < start + frameLen; i++) {
      const v = (samples[i] as number) / 32768;
      sum += v * v;
    }
    dbs.push(Math.max(-100, 10 * Math.log10(sum / frameLen + 1e-12)));
  }
  const durationMs = Math.round((samples.length / sampleRate) * 1000);
  if (dbs.length === 0) return { durationMs, peakDb: -100, floorDb: -100, activeMs: 0, firstActiveMs: -1, lastActiveMs: -1 };
  const sorted = [...dbs].sort((a, b) => a - b);
  const peakDb = sorted[sorted.length - 1] as number;
  const floorDb = sorted[Math.floor(sorted.length * 0.1)] as number;
  const threshold = Math.max(floorDb + gate.aboveFloorDb, gate.minActiveDb);
  const active = dbs.filter((d) => d >= threshold).length;
  const first = dbs.findIndex((d) => d >= threshold);
  const last = dbs.findLastIndex((d) => d >= threshold);
  return {
    durationMs, peakDb: round1(peakDb), floorDb: round1(floorDb), activeMs: active * FRAME_MS,
    firstActiveMs: first === -1 ? -1 : first * FRAME_MS, lastActiveMs: last === -1 ? -1 : last * FRAME_MS,
  };
}

/**
 * The part of the recording the decoder should hear: from `marginMs` before the first active
 * frame to `marginMs` after the last one. Batch decoding normalizes by the mean of everything it
 * is given, and a one-second answer inside four seconds of quiet (the wait before the child
 * speaks, the pause that ends the recording) gave a mean of mostly silence: "penny" became
 * "bunny". The model's training utterances have short margins like these.
 */
export function trimToSpeech(samples: Int16Array, levels: Levels, sampleRate = SAMPLE_RATE, marginMs = TRIM_MARGIN_MS): Int16Array {
  if (levels.firstActiveMs < 0) return samples;
  const start = Math.max(0, Math.floor(((levels.firstActiveMs - marginMs) * sampleRate) / 1000));
  const end = Math.min(samples.length, Math.ceil(((levels.lastActiveMs + FRAME_MS + marginMs) * sampleRate) / 1000));
  return samples.subarray(start, end);
}

const TRIM_MARGIN_MS = 300;

/** Nothing but silence or a steady sound (hiss, hum, fan): no need to decode at all. */
export function isSilentOrSteady(levels: Levels, gate: SpeechGate = DEFAULT_GATE): boolean {
  return levels.peakDb < gate.minPeakDb || levels.activeMs < gate.minActiveMs;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
