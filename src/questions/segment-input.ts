import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { FrameImage, SegmentInput, SubtitleLine } from '../ai/types.js';
import type { MediaStore } from '../storage/media-store.js';
import { frameKey, videoKey } from '../storage/keys.js';
import { readFrameManifest, type FrameManifest } from '../pipeline/frames.js';
import { parseVtt } from '../pipeline/subtitles.js';
import { runProcess } from '../pipeline/process-runner.js';
import type { SegmentKey } from './review.repository.js';
import { getVideo } from '../videos/videos.repository.js';

/** How many frames of a segment a provider sees, and how big. */
export const MAX_FRAMES_PER_SEGMENT = 5;
export const FRAME_EDGE_PX = 512;
/** frames already this small are sent as they are (no ffmpeg run) */
const SMALL_ENOUGH_PX = 640;

export interface VideoSource {
  videoId: string;
  title: string;
  durationSeconds: number;
  /** the frame set the manifest came from (the videos row's frames_set), for the frames' keys */
  framesSet: string | null;
  manifest: FrameManifest;
  subtitles: SubtitleLine[];
}

/**
 * What generation needs about a video: its frames manifest (null when frames were never
 * extracted) and its subtitle lines, from the VTT file when there is one (exact cue times,
 * short cues kept) or else from the manifest's per-second subtitle text. Both are read from the
 * media store (DATA_DIR or the bucket), the frames from the set the videos row names.
 */
export async function loadVideoSource(db: Database, store: MediaStore, videoId: string): Promise<VideoSource | null> {
  const video = await getVideo(db, videoId);
  // the row names the current frame set: manifest and frames are read from that one set
  const manifest = video ? await readFrameManifest(store, videoId, video.framesSet) : null;
  if (!video || !manifest || manifest.frames.length === 0) return null;
  const lastFrame = manifest.frames[manifest.frames.length - 1]!.timestamp;
  return {
    videoId,
    title: video.title,
    durationSeconds: Math.max(Math.ceil(video.durationSeconds), lastFrame + 1),
    framesSet: video.framesSet,
    manifest,
    subtitles: (await readVttLines(store, videoId, video.subtitleFile)) ?? manifestLines(manifest),
  };
}

/** Segments of a run: one segment, or every interval from the start to the end of the video. */
export function planSegments(
  req: { start_seconds: number; interval_seconds: number; full_duration: boolean },
  durationSeconds: number,
): SegmentKey[] {
  const { start_seconds: start, interval_seconds: step } = req;
  if (start >= durationSeconds) return [];
  if (!req.full_duration) return [{ start, end: Math.min(start + step, durationSeconds) }];
  const out: SegmentKey[] = [];
  for (let s = start; s < durationSeconds; s += step) out.push({ start: s, end: Math.min(s + step, durationSeconds) });
  // A tail of a few seconds is folded into the segment before it (too short to ask about).
  const tail = out[out.length - 1]!;
  if (out.length > 1 && tail.end - tail.start < Math.min(5, step / 2)) {
    out.pop();
    out[out.length - 1]!.end = tail.end;
  }
  return out;
}

export interface InputOptions {
  /** load and downscale frames (the offline provider reads subtitles only) */
  withFrames: boolean;
  ffmpegPath: string;
  /** where the frames are (mediaStore(config)) */
  store: MediaStore;
  signal?: AbortSignal;
  logger?: Logger;
}

/** The provider request for one segment: up to 5 evenly spread frames and the subtitle lines. */
export async function buildSegmentInput(src: VideoSource, seg: SegmentKey, o: InputOptions): Promise<SegmentInput> {
  const inSeg = src.manifest.frames.filter((f) => f.timestamp >= seg.start && f.timestamp < seg.end);
  const picked = spread(inSeg, MAX_FRAMES_PER_SEGMENT);
  const frames: FrameImage[] = [];
  if (o.withFrames) {
    for (const f of picked) {
      const data = await downscaledJpeg(frameKey(src.videoId, f.file, src.framesSet), o);
      if (data) frames.push({ timestamp: f.timestamp, data, mimeType: 'image/jpeg' });
    }
  }
  return {
    videoId: src.videoId,
    title: src.title,
    start: seg.start,
    end: seg.end,
    frames,
    subtitles: src.subtitles.filter((l) => l.time >= seg.start && l.time < seg.end),
    after: src.subtitles.filter((l) => l.time >= seg.end && l.time < seg.end + 15).slice(0, 3),
  };
}

/** k items spread evenly over the list, first and last included. */
export function spread<T>(items: readonly T[], k: number): T[] {
  if (items.length <= k) return [...items];
  if (k === 1) return [items[Math.floor(items.length / 2)]!];
  return Array.from({ length: k }, (_, i) => items[Math.round((i * (items.length - 1)) / (k - 1))]!);
}

/** A frame at most ~512 px on its long edge: small JPEGs as they are, larger ones through ffmpeg. */
async function downscaledJpeg(key: string, o: InputOptions): Promise<Buffer | null> {
  const data = await o.store.getBuffer(key);
  if (!data) return null; // a frame deleted since the manifest was written: send the others
  const size = jpegSize(data);
  if (size && Math.max(size.width, size.height) <= SMALL_ENOUGH_PX) return data;
  const scale = !size || size.width >= size.height ? `scale=${FRAME_EDGE_PX}:-2` : `scale=-2:${FRAME_EDGE_PX}`;
  const r = await runProcess(
    o.ffmpegPath,
    // the JPEG goes in on stdin: the frame may live in a bucket, not in a file
    ['-hide_banner', '-loglevel', 'error', '-f', 'jpeg_pipe', '-i', 'pipe:0', '-vf', scale, '-frames:v', '1', '-q:v', '5', '-f', 'image2pipe', '-c:v', 'mjpeg', '-'],
    { timeoutMs: 30_000, signal: o.signal, logger: o.logger, maxStdoutBytes: 8 * 1024 * 1024, input: data },
  );
  return r.stdout;
}

/** Width and height from a JPEG's start-of-frame marker (null when not found). */
export function jpegSize(buf: Buffer): { width: number; height: number } | null {
  if (buf.length < 4 || buf[0] !== 0xff || buf[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1]!;
    const len = buf.readUInt16BE(i + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
    }
    i += 2 + len;
  }
  return null;
}

async function readVttLines(store: MediaStore, videoId: string, name: string | null): Promise<SubtitleLine[] | null> {
  if (!name) return null;
  try {
    const data = await store.getBuffer(videoKey(videoId, name));
    if (!data) return null;
    const cues = parseVtt(data.toString('utf8'));
    const lines: SubtitleLine[] = [];
    for (const c of cues) {
      for (const text of c.text.split('\n')) {
        // automatic captions repeat the previous line in the next cue: keep each line once
        if (!lines.some((l) => l.text === text && c.start - l.time < 10)) lines.push({ time: c.start, text });
      }
    }
    return lines.length ? lines : null;
  } catch {
    return null;
  }
}

/** Per-second subtitle text → lines: a line starts where its text first shows. */
export function manifestLines(m: FrameManifest): SubtitleLine[] {
  const lines: SubtitleLine[] = [];
  let prev = '';
  for (const f of m.frames) {
    const text = f.subtitle.trim();
    // "A" then "A B": only "B" is new; "A B" then "B": nothing is new
    if (text && !prev.includes(text)) {
      const fresh = prev && text.startsWith(prev) ? text.slice(prev.length).trim() : text;
      if (fresh) lines.push({ time: f.timestamp, text: fresh });
    }
    prev = text;
  }
  return lines;
}
