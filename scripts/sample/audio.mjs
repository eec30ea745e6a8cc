// Narration: each line is spoken by espeak-ng into its own WAV, trimmed of the silence espeak-ng
// adds around it, and placed at its own start time in one mono track. Placing samples ourselves
// (instead of an ffmpeg mix) keeps the cue times exact, so the subtitles match the voice.

import fs from 'node:fs';
import path from 'node:path';
import { run } from './run.mjs';

/** Reads a 16-bit PCM mono WAV (what espeak-ng writes). */
export function readWav(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') throw new Error(`${file}: not a WAV`);
  let offset = 12;
  let rate = 0;
  let samples;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    let size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      const format = buf.readUInt16LE(body);
      const channels = buf.readUInt16LE(body + 2);
      rate = buf.readUInt32LE(body + 4);
      const bits = buf.readUInt16LE(body + 14);
      if (format !== 1 || channels !== 1 || bits !== 16) throw new Error(`${file}: expected 16-bit PCM mono`);
    } else if (id === 'data') {
      // espeak-ng writing to a file leaves a correct size; guard against a streaming 0xffffffff anyway
      if (size > buf.length - body) size = buf.length - body;
      samples = new Int16Array(buf.buffer.slice(buf.byteOffset + body, buf.byteOffset + body + (size & ~1)));
    }
    offset = body + size + (size & 1);
  }
  if (!rate || !samples) throw new Error(`${file}: no fmt or data chunk`);
  return { rate, samples };
}

export function writeWav(file, rate, samples) {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length * 2, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length * 2, 40);
  fs.writeFileSync(file, Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.length * 2)]));
}

/** Drops leading and trailing samples quieter than `threshold` (about -46 dBFS). */
export function trimSilence(samples, threshold = 160) {
  let start = 0;
  let end = samples.length;
  while (start < end && Math.abs(samples[start]) < threshold) start++;
  while (end > start && Math.abs(samples[end - 1]) < threshold) end--;
  return samples.subarray(start, end);
}

/** Speaks one line with espeak-ng and returns its trimmed samples. */
export function speak(espeak, workDir, index, text, { voice, pitch, speed }) {
  const file = path.join(workDir, `line-${String(index).padStart(2, '0')}.wav`);
  run(espeak, ['-v', voice, '-p', String(pitch), '-s', String(speed), '-w', file, '--', text]);
  const wav = readWav(file);
  return { rate: wav.rate, samples: trimSilence(wav.samples) };
}

/**
 * Lays lines out scene by scene: each starts after the previous one plus `gap` (or at its own
 * `at`, if later). Returns the cues with global start/end seconds and the mixed track.
 */
export function layOut(scenes, spoken, { leadIn, gap, tail }) {
  const rate = spoken[0].rate;
  const total = scenes.reduce((s, sc) => s + sc.duration, 0);
  const track = new Int16Array(Math.ceil(total * rate));
  const cues = [];
  let sceneStart = 0;
  let i = 0;
  for (const scene of scenes) {
    let cursor = leadIn;
    for (const line of scene.narration) {
      const { samples } = spoken[i++];
      const start = Math.max(cursor, line.at ?? 0);
      const seconds = samples.length / rate;
      const end = start + seconds;
      if (end > scene.duration - tail) {
        throw new Error(
          `scene "${scene.name}": narration ends at ${end.toFixed(2)} s but the scene lasts ${scene.duration} s ` +
            `(needs ${tail} s of quiet at the end): shorten the text or lengthen the scene, then review the questions`,
        );
      }
      track.set(samples, Math.round((sceneStart + start) * rate));
      cues.push({ start: round3(sceneStart + start), end: round3(sceneStart + end), text: line.text, scene: scene.name });
      cursor = end + gap;
    }
    sceneStart += scene.duration;
  }
  return { rate, track, cues, total };
}

const round3 = (x) => Math.round(x * 1000) / 1000;
