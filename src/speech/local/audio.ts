/**
 * Audio preparation for the local recognizer: the ffmpeg arguments that turn any upload
 * (webm/opus from MediaRecorder, mp3, wav, ogg...) into the 16 kHz mono 16-bit WAV pocketsphinx
 * needs (at 22 kHz it hears nothing), a reader for that WAV, and a level analysis that tells
 * silence and steady noise from speech before any decoding. Pure functions.
 */

export const SAMPLE_RATE = 16_000;
/** answers are short; longer uploads are cut (the decoder's time grows with the audio) */
export const MAX_AUDIO_SECONDS = 30;

export function toRecognizerWavArgs(input: string, output: string, maxSeconds = MAX_AUDIO_SECONDS): string[] {
  return [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-y',
    '-i', input,
    '-vn', '-map', '0:a:0',
    '-t', String(maxSeconds),
    '-ac', '1', '-ar', String(SAMPLE_RATE), '-c:a', 'pcm_s16le',
    '-f', 'wav', output,
  ];
}

/** The samples of a 16-bit PCM mono WAV (any chunk layout); throws on anything else. */
export function readPcm16Wav(buf: Buffer): { sampleRate: number; samples: Int16Array } {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a WAV file');
  }
  let pos = 12;
  let sampleRate = 0;
  let bits = 0;
  let channels = 0;
  while (pos + 8 <= buf.length) {
    const id = buf.toString('ascii', pos, pos + 4);
    let size = buf.readUInt32LE(pos + 4);
    const body = pos + 8;
    if (id === 'fmt ') {
      channels = buf.readUInt16LE(body + 2);
      sampleRate = buf.readUInt32LE(body + 4);
      bits = buf.readUInt16LE(body + 14);
    } else if (id === 'data') {
      if (bits !== 16 || channels !== 1) throw new Error(`expected 16-bit mono PCM, got ${bits}-bit ${channels}-channel`);
      // a streamed WAV may carry a placeholder size: take what is there
      if (size === 0 || size === 0xffffffff || body + size > buf.length) size = buf.length - body;
      const copy = Buffer.from(buf.subarray(body, body + (size - (size % 2))));
      return { sampleRate, samples: new Int16Array(copy.buffer, copy.byteOffset, copy.length / 2) };
    }
    pos = body + size + (size % 2);
  }
  throw new Error('WAV file without audio data');
}

export interface Levels {
  durationMs: number;
  /** loudest 20 ms frame, dBFS */
  peakDb: number;
  /** the quiet background: the 10th percentile frame, dBFS */
  floorDb: number;
  /** how long the audio stands clearly above both the floor and an absolute minimum */
  activeMs: number;
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
  if (dbs.length === 0) return { durationMs, peakDb: -100, floorDb: -100, activeMs: 0 };
  const sorted = [...dbs].sort((a, b) => a - b);
  const peakDb = sorted[sorted.length - 1] as number;
  const floorDb = sorted[Math.floor(sorted.length * 0.1)] as number;
  const threshold = Math.max(floorDb + gate.aboveFloorDb, gate.minActiveDb);
  const active = dbs.filter((d) => d >= threshold).length;
  return { durationMs, peakDb: round1(peakDb), floorDb: round1(floorDb), activeMs: active * FRAME_MS };
}

/** Nothing but silence or a steady sound (hiss, hum, fan): no need to decode at all. */
export function isSilentOrSteady(levels: Levels, gate: SpeechGate = DEFAULT_GATE): boolean {
  return levels.peakDb < gate.minPeakDb || levels.activeMs < gate.minActiveMs;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
