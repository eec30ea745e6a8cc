#!/usr/bin/env node
// Builds the bundled sample video from scratch: drawn pictures (ffmpeg filters), narration
// (espeak-ng), English subtitles, a thumbnail and frames at 1 fps with their manifests.
//
//   node scripts/make-sample.mjs [--out sample]
//
// Needs ffmpeg, ffprobe and espeak-ng on PATH (or FFMPEG_PATH / FFPROBE_PATH / ESPEAK_PATH).
// The same tool versions give the same bytes. The output replaces `<out>/media/` and
// `<out>/manifest.json`; `<out>/questions.json` (the reviewed questions) is never touched.
// See docs/sample.md.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { run, available } from './sample/run.mjs';
import { SPRITES } from './sample/sprites.mjs';
import { renderSprites, encodeArgs } from './sample/video.mjs';
import { layOut, speak, writeWav } from './sample/audio.mjs';
import { GAP, LEAD_IN, SCENES, TAIL, TITLE, VIDEO_ID, VOICES, WIDTH, HEIGHT, FPS } from './sample/story.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FFMPEG = process.env.FFMPEG_PATH || 'ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH || 'ffprobe';
const ESPEAK = process.env.ESPEAK_PATH || 'espeak-ng';
const FRAME_WIDTH = 320;
const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf',
];

function main() {
  const outIndex = process.argv.indexOf('--out');
  const outDir = path.resolve(outIndex > 0 ? process.argv[outIndex + 1] : path.join(ROOT, 'sample'));
  for (const tool of [FFMPEG, FFPROBE]) if (!available(tool)) fail(`${tool} was not found: install ffmpeg`);
  if (!available(ESPEAK, ['--version'])) fail(`${ESPEAK} was not found: install espeak-ng`);
  const font = findFont();
  if (!font) console.warn('no TrueType font found: the titles are left out');

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'make-sample-'));
  const stage = path.join(outDir, '.media-new');
  try {
    fs.rmSync(stage, { recursive: true, force: true });
    fs.mkdirSync(path.join(stage, 'frames'), { recursive: true });
    step('drawing sprites');
    const spriteFiles = renderSprites(FFMPEG, SPRITES, work);

    step('speaking the narration');
    const lines = SCENES.flatMap((s) => s.narration);
    const spoken = lines.map((line, i) => speak(ESPEAK, work, i, line.text, VOICES[line.who]));
    const { rate, track, cues, total } = layOut(SCENES, spoken, { leadIn: LEAD_IN, gap: GAP, tail: TAIL });
    const narrationWav = path.join(work, 'narration.wav');
    writeWav(narrationWav, rate, track);

    step('drawing the scenes and encoding');
    const files = { video: `${VIDEO_ID}.mp4`, thumbnail: `${VIDEO_ID}.jpg`, subtitles: `${VIDEO_ID}.en.vtt`, info: `${VIDEO_ID}.info.json` };
    const video = path.join(stage, files.video);
    run(FFMPEG, encodeArgs({ scenes: SCENES, spriteFiles, font, narrationWav, out: video, graphFile: path.join(work, 'graph.txt') }));
    const duration = probeDuration(video);

    fs.writeFileSync(path.join(stage, files.subtitles), toVtt(cues));

    step('thumbnail and frames');
    // 1.5 s in: the title, Penny and her ball are all on screen
    run(FFMPEG, ['-nostdin', '-y', '-v', 'error', '-ss', '1.5', '-i', video, '-frames:v', '1', '-q:v', '3', '-flags', '+bitexact', path.join(stage, files.thumbnail)]);
    // round=up takes frame k at t = k s exactly (plain fps=1 takes it about half a second late)
    run(FFMPEG, [
      '-nostdin', '-y', '-v', 'error', '-i', video, '-an',
      '-vf', `fps=1:round=up,scale=${FRAME_WIDTH}:-2`, '-q:v', '6', '-flags', '+bitexact',
      '-start_number', '0', path.join(stage, 'frames', 'frame_%05d.jpg'),
    ]);
    const frames = frameManifest(path.join(stage, 'frames'), cues);
    fs.writeFileSync(path.join(stage, 'frames', 'frames.json'), JSON.stringify(frames, null, 2) + '\n');
    fs.writeFileSync(path.join(stage, 'frames', 'frames.csv'), toCsv(frames.frames));

    const info = {
      id: VIDEO_ID,
      title: TITLE,
      description: 'A little pig loses her red ball; a bunny helps her find it at the pond. Bundled sample, drawn by ffmpeg and narrated by espeak-ng.',
      duration,
      width: WIDTH,
      height: HEIGHT,
      fps: FPS,
      ext: 'mp4',
      language: 'en',
      uploader: 'kids-video-quiz sample',
      segments: segmentsOf(SCENES),
    };
    fs.writeFileSync(path.join(stage, files.info), JSON.stringify(info, null, 2) + '\n');

    const manifest = {
      video_id: VIDEO_ID,
      title: TITLE,
      duration_seconds: duration,
      frame_count: frames.count,
      files: { ...files, frames_dir: 'frames' },
      segments: info.segments,
      cues,
      checksums: checksums(stage),
    };
    publish(outDir, stage, manifest);
    const size = Object.values(manifest.checksums).reduce((s, c) => s + c.bytes, 0);
    console.log(`sample written to ${outDir}: ${duration} s, ${frames.count} frames, ${(size / 1e6).toFixed(2)} MB`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

function findFont() {
  for (const f of FONT_CANDIDATES) if (fs.existsSync(f)) return f;
  try {
    const f = run('fc-match', ['-f', '%{file}', 'sans:bold']).trim();
    if (f && fs.existsSync(f) && /\.(ttf|otf)$/i.test(f)) return f;
  } catch {
    // no fontconfig: shapes only
  }
  return null;
}

function probeDuration(file) {
  const out = run(FFPROBE, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Math.round(Number(out.trim()) * 1000) / 1000;
}

function segmentsOf(scenes) {
  let start = 0;
  return scenes.map((s) => {
    const seg = { start, end: start + s.duration, scene: s.name };
    start += s.duration;
    return seg;
  });
}

/** Frame k is the picture at t = k s; its subtitle is the cue being spoken at that moment. */
function frameManifest(dir, cues) {
  const files = fs.readdirSync(dir).filter((f) => /^frame_\d{5}\.jpg$/.test(f)).sort();
  const frames = files.map((file, k) => {
    if (file !== `frame_${String(k).padStart(5, '0')}.jpg`) throw new Error(`frames are not numbered from 0: ${file}`);
    const cue = cues.find((c) => c.start <= k && k < c.end);
    return { frame: k, timestamp: k, time: hms(k), file, subtitle: cue ? cue.text : '' };
  });
  return { video_id: VIDEO_ID, fps: 1, count: frames.length, frames };
}

function toVtt(cues) {
  const body = cues.map((c, i) => `${i + 1}\n${vttTime(c.start)} --> ${vttTime(c.end)}\n${c.text}\n`).join('\n');
  return `WEBVTT\n\n${body}`;
}

function toCsv(frames) {
  const q = (s) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return ['frame,timestamp,time,file,subtitle', ...frames.map((f) => [f.frame, f.timestamp, f.time, f.file, q(f.subtitle)].join(','))].join('\n') + '\n';
}

function checksums(dir) {
  const out = {};
  const walk = (rel) => {
    for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const full = path.join(dir, r);
      if (fs.statSync(full).isDirectory()) walk(r);
      else {
        const data = fs.readFileSync(full);
        out[r] = { bytes: data.length, sha256: crypto.createHash('sha256').update(data).digest('hex') };
      }
    }
  };
  walk('');
  return out;
}

/** Swaps the new media in for the old in two renames, so a failed build never leaves half a sample. */
function publish(outDir, stage, manifest) {
  const media = path.join(outDir, 'media');
  const old = path.join(outDir, '.media-old');
  fs.rmSync(old, { recursive: true, force: true });
  if (fs.existsSync(media)) fs.renameSync(media, old);
  fs.renameSync(stage, media);
  fs.rmSync(old, { recursive: true, force: true });
  const tmp = path.join(outDir, `.manifest.${process.pid}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(manifest, null, 2) + '\n');
  fs.renameSync(tmp, path.join(outDir, 'manifest.json'));
}

const pad = (n, w = 2) => String(n).padStart(w, '0');
const hms = (s) => `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(Math.floor(s % 60))}`;
function vttTime(t) {
  const ms = Math.round(t * 1000);
  return `${hms(Math.floor(ms / 1000))}.${pad(ms % 1000, 3)}`;
}

function step(text) {
  console.log(`- ${text}`);
}

function fail(message) {
  console.error(`make-sample: ${message}`);
  process.exit(1);
}

main();
