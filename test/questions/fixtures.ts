import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Database } from '../../src/db/database.js';

/**
 * Small factories for question tests: a `videos` row plus a frames folder with frames.json,
 * written directly (no download pipeline). Frames are one tiny ffmpeg-made JPEG copied per second.
 */
export interface Cue {
  start: number;
  end: number;
  text: string;
}

/** Sample-like narration: a named character, a place, a feeling, a cause, what comes next. */
export const STORY: Cue[] = [
  { start: 1, end: 4, text: 'This is Penny, a little pig.' },
  { start: 4, end: 7, text: 'Penny lives on a sunny farm.' },
  { start: 7, end: 10, text: 'She loves to play with her red ball.' },
  { start: 12, end: 16, text: 'One windy day, the wind blew the ball away.' },
  { start: 16, end: 20, text: 'Penny looked and looked, but she could not find it.' },
  { start: 21, end: 24, text: 'Penny felt sad.' },
  { start: 25, end: 28, text: 'Then Benny the bunny came hopping by.' },
  { start: 29, end: 31, text: 'Why are you sad, Penny?' },
  { start: 31, end: 33, text: 'I lost my red ball.' },
  { start: 37, end: 40, text: 'They went down to the pond.' },
  { start: 40, end: 43, text: 'Ally the alligator had the red ball on her nose!' },
  { start: 43, end: 46, text: 'Ally gave the ball back to Penny.' },
];

const jpegCache = new Map<string, Buffer>();

/** A JPEG of the given size made by the real ffmpeg (cached per size). */
export function tinyJpeg(size = '64x36'): Buffer {
  let data = jpegCache.get(size);
  if (!data) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-jpeg-'));
    const file = path.join(dir, 'f.jpg');
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `color=c=orange:s=${size}:d=1`, '-frames:v', '1', '-y', file]);
    data = fs.readFileSync(file);
    fs.rmSync(dir, { recursive: true, force: true });
    jpegCache.set(size, data);
  }
  return data;
}

export interface VideoFixture {
  id: string;
  seconds: number;
  cues?: Cue[];
  frameSize?: string;
  title?: string;
  /** false: the row only, no frames folder */
  frames?: boolean;
}

export async function addVideo(db: Database, dataDir: string, v: VideoFixture): Promise<void> {
  await db.run('INSERT INTO videos (id, title, duration_seconds, frame_count) VALUES (?, ?, ?, ?)', [
    v.id, v.title ?? `Video ${v.id}`, v.seconds, v.frames === false ? 0 : v.seconds,
  ]);
  if (v.frames === false) return;
  const dir = path.join(dataDir, 'videos', v.id, 'frames');
  fs.mkdirSync(dir, { recursive: true });
  const jpeg = tinyJpeg(v.frameSize);
  const cues = v.cues ?? STORY;
  const frames = Array.from({ length: v.seconds }, (_, k) => {
    const file = `frame_${String(k).padStart(5, '0')}.jpg`;
    fs.writeFileSync(path.join(dir, file), jpeg);
    const subtitle = cues.filter((c) => c.start <= k && k < c.end).map((c) => c.text).join(' ');
    const time = `00:${String(Math.floor(k / 60)).padStart(2, '0')}:${String(k % 60).padStart(2, '0')}`;
    return { frame: k, timestamp: k, time, file, subtitle };
  });
  fs.writeFileSync(path.join(dir, 'frames.json'), JSON.stringify({ video_id: v.id, fps: 1, count: frames.length, frames }));
}

export async function assignVideo(db: Database, videoId: string, expertId: string): Promise<void> {
  await db.run('INSERT INTO video_assignments (video_id, expert_id) VALUES (?, ?)', [videoId, expertId]);
}

export const count = async (db: Database, sql: string, params: unknown[] = []): Promise<number> => (await db.first<{ n: number }>(sql, params))!.n;
