import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import { runProcess } from './process-runner.js';
import { writeAtomic } from './files.js';
import { FfmpegProgressParser } from './progress.js';
import { FRAMES_CSV, FRAMES_JSON } from './paths.js';
import type { MediaStore } from '../storage/media-store.js';
import { frameKey } from '../storage/keys.js';
import { formatClock, subtitleAt, type Cue } from './subtitles.js';

/**
 * Frames at 1 per second in one ffmpeg pass. `fps=1:round=up` gives output slot k the last
 * picture whose time is <= k, i.e. what a player shows at t = k s (plain `fps=1` rounds to the
 * nearest slot and so takes the picture at about k + 0.47 s). `start_time=0` anchors slot 0 at
 * the start of the file: when the video stream starts a little after the audio (common after an
 * MPEG-TS remux), frame 0 is then the first picture, as a player shows it, rather than a copy of
 * frame 1.
 */
export const FRAME_FILE_RE = /^frame_\d{5,6}\.jpg$/;
export const FRAME_FILTER = 'fps=fps=1:round=up:start_time=0';
/** frames are capped at 720 lines (a no-op for the usual 720p download); scaling runs after fps, on 1 picture a second */
export const FRAME_SCALE = "scale=-2:'min(720,ih)'";
export const FRAME_QUALITY = '3';

export const frameFileName = (k: number): string => `frame_${String(k).padStart(5, '0')}.jpg`;

export const frameEntrySchema = z.object({
  frame: z.number().int().min(0),
  timestamp: z.number().min(0),
  time: z.string(),
  file: z.string().regex(FRAME_FILE_RE),
  subtitle: z.string(),
});
export const frameManifestSchema = z.object({
  video_id: z.string(),
  fps: z.literal(1),
  count: z.number().int().min(0),
  frames: z.array(frameEntrySchema),
});
export type FrameEntry = z.infer<typeof frameEntrySchema>;
export type FrameManifest = z.infer<typeof frameManifestSchema>;

export function frameArgs(videoFile: string, outDir: string): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    // machine-readable progress on stdout (out_time_us …), no stats line on stderr
    '-progress',
    'pipe:1',
    '-nostats',
    '-y',
    '-i',
    videoFile,
    '-map',
    '0:v:0',
    '-an',
    '-sn',
    '-dn',
    '-vf',
    `${FRAME_FILTER},${FRAME_SCALE}`,
    '-q:v',
    FRAME_QUALITY,
    '-start_number',
    '0',
    '-f',
    'image2',
    path.join(outDir, 'frame_%05d.jpg'),
  ];
}

export interface FrameRunOptions {
  ffmpeg: string;
  logger?: Logger;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** the video's length, for progress */
  durationSeconds?: number;
  /** 0..1 of the video read so far */
  onProgress?: (fraction: number) => void;
}

/** Runs ffmpeg into `outDir` (which must exist and be empty); returns the frame file names in order. */
export async function runFrameExtraction(o: FrameRunOptions, videoFile: string, outDir: string): Promise<string[]> {
  const parser = new FfmpegProgressParser(o.durationSeconds ?? 0);
  const onStdoutLine = o.onProgress
    ? (line: string) => {
        const f = parser.push(line);
        if (f !== undefined) o.onProgress!(f);
      }
    : undefined;
  await runProcess(o.ffmpeg, frameArgs(videoFile, outDir), { timeoutMs: o.timeoutMs, signal: o.signal, logger: o.logger, onStdoutLine });
  return listFrameFiles(outDir);
}

export function listFrameFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => FRAME_FILE_RE.test(f))
    .sort((a, b) => frameNumber(a) - frameNumber(b));
}

export function frameNumber(file: string): number {
  return Number(file.slice(6, file.indexOf('.')));
}

export function buildManifest(videoId: string, files: readonly string[], cues: readonly Cue[]): FrameManifest {
  const frames = files.map((file) => {
    const k = frameNumber(file);
    return { frame: k, timestamp: k, time: formatClock(k), file, subtitle: subtitleAt(cues, k) };
  });
  return { video_id: videoId, fps: 1, count: frames.length, frames };
}

export function manifestCsv(m: FrameManifest): string {
  const rows = m.frames.map((f) => [f.frame, f.timestamp, f.time, f.file, f.subtitle].map(csvCell).join(','));
  return ['frame,timestamp,time,file,subtitle', ...rows].join('\n') + '\n';
}

/** Writes frames.json and frames.csv into `dir`, each atomically. */
export function writeManifests(dir: string, m: FrameManifest): void {
  writeAtomic(path.join(dir, FRAMES_JSON), JSON.stringify(m, null, 1));
  writeAtomic(path.join(dir, FRAMES_CSV), manifestCsv(m));
}

/**
 * The video's frames.json from the media store (in the frame set the videos row names: `set`), or
 * null when frames were never extracted (or the file is damaged).
 */
export async function readFrameManifest(store: MediaStore, videoId: string, set: string | null): Promise<FrameManifest | null> {
  const data = await store.getBuffer(frameKey(videoId, FRAMES_JSON, set));
  if (!data) return null;
  try {
    const parsed = frameManifestSchema.safeParse(JSON.parse(data.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function csvCell(v: string | number): string {
  const s = String(v);
  // quote when needed; a leading =,+,-,@ is prefixed so a spreadsheet never runs subtitle text as a formula
  const safe = /^[=+\-@]/.test(s) && typeof v === 'string' ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
