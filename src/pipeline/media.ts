import fs from 'node:fs';
import type { Logger } from '../logger.js';
import { ProcessError, runProcess } from './process-runner.js';

/** ffprobe checks, MPEG-TS → MP4 repair and thumbnails. Builders are pure; runners go through runProcess. */
export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
  logger?: Logger;
  signal?: AbortSignal;
}

export interface ProbeInfo {
  /** ffprobe's format_name, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "mpegts" */
  formatName: string;
  duration: number;
  hasVideo: boolean;
  hasAudio: boolean;
  videoCodec?: string;
  audioCodec?: string;
  width?: number;
  height?: number;
}

const QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error'];
/** thumbnails and frames are never wider than this */
export const THUMBNAIL_MAX_WIDTH = 640;

export function ffprobeArgs(file: string): string[] {
  return [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_entries',
    'format=format_name,duration:stream=codec_type,codec_name,width,height,duration',
    '-i',
    file,
  ];
}

/** Copies the streams into a fresh MP4 (no re-encoding); `+faststart` lets a player start before the end arrives. */
export function remuxArgs(input: string, output: string): string[] {
  return [...QUIET, '-y', '-i', input, '-map', '0:v:0', '-map', '0:a:0?', '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', output];
}

/** When the streams cannot be copied into MP4 (a codec MP4 does not carry), re-encode to H.264 + AAC. */
export function transcodeArgs(input: string, output: string): string[] {
  return [
    ...QUIET,
    '-y',
    '-i',
    input,
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    output,
  ];
}

/** One picture at `atSeconds`, at most THUMBNAIL_MAX_WIDTH wide, as JPEG. Also converts a WebP/PNG thumbnail. */
export function thumbnailArgs(input: string, output: string, atSeconds = 0): string[] {
  const seek = atSeconds > 0 ? ['-ss', atSeconds.toFixed(3)] : [];
  return [...QUIET, '-y', ...seek, '-i', input, '-frames:v', '1', '-vf', `scale='min(${THUMBNAIL_MAX_WIDTH},iw)':-2`, '-q:v', '4', '-f', 'image2', output];
}

export function parseProbe(json: string): ProbeInfo {
  const data = JSON.parse(json) as {
    format?: { format_name?: string; duration?: string };
    streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string }[];
  };
  const streams = data.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && s.codec_name !== 'mjpeg' && s.codec_name !== 'png');
  const audio = streams.find((s) => s.codec_type === 'audio');
  const duration = Number(data.format?.duration ?? video?.duration ?? 0);
  return {
    formatName: data.format?.format_name ?? '',
    duration: Number.isFinite(duration) && duration > 0 ? duration : 0,
    hasVideo: video !== undefined,
    hasAudio: audio !== undefined,
    videoCodec: video?.codec_name,
    audioCodec: audio?.codec_name,
    width: video?.width,
    height: video?.height,
  };
}

export async function probeMedia(tools: MediaTools, file: string): Promise<ProbeInfo> {
  const r = await runProcess(tools.ffprobe, ffprobeArgs(file), { timeoutMs: 60_000, signal: tools.signal, logger: tools.logger });
  return parseProbe(r.stdout.toString('utf8'));
}

/** MP4 family per ffprobe (an MPEG-TS or WebM stream with an .mp4 name is not). */
export function isMp4Container(info: ProbeInfo): boolean {
  return info.formatName.split(',').includes('mp4');
}

export type Mp4Check = { ok: true; info: ProbeInfo; repaired: 'no' | 'remuxed' | 'transcoded' } | { ok: false; reason: string };

/**
 * Makes sure `file` is a playable MP4 with a video stream. A file in another container (the
 * platform's HLS/MPEG-TS segments saved under an MP4 name) is remuxed with ffmpeg into a temp file
 * that replaces it; if the codecs cannot go into MP4, it is re-encoded.
 */
export async function ensurePlayableMp4(tools: MediaTools, file: string): Promise<Mp4Check> {
  let info: ProbeInfo;
  try {
    info = await probeMedia(tools, file);
  } catch (err) {
    if (err instanceof ProcessError && err.kind === 'exit') return { ok: false, reason: 'ffprobe cannot read the file' };
    throw err;
  }
  if (!info.hasVideo) return { ok: false, reason: 'the file has no video stream' };
  if (isMp4Container(info)) return { ok: true, info, repaired: 'no' };

  const tmp = `${file}.repair.mp4`;
  for (const [mode, args] of [
    ['remuxed', remuxArgs(file, tmp)],
    ['transcoded', transcodeArgs(file, tmp)],
  ] as const) {
    try {
      await runProcess(tools.ffmpeg, args, { timeoutMs: 60 * 60_000, signal: tools.signal, logger: tools.logger });
      const fixed = await probeMedia(tools, tmp);
      if (fixed.hasVideo && isMp4Container(fixed)) {
        fs.renameSync(tmp, file);
        return { ok: true, info: fixed, repaired: mode };
      }
    } catch (err) {
      if (!(err instanceof ProcessError) || err.kind !== 'exit') {
        fs.rmSync(tmp, { force: true });
        throw err;
      }
      tools.logger?.warn({ file, mode, err: err.message }, 'mp4 repair attempt failed');
    }
    fs.rmSync(tmp, { force: true });
  }
  return { ok: false, reason: `the ${info.formatName || 'unknown'} file could not be converted to MP4` };
}

/** Writes a JPEG thumbnail from `source` (a video, or the platform's image). */
export async function makeThumbnail(tools: MediaTools, source: string, output: string, atSeconds = 0): Promise<void> {
  await runProcess(tools.ffmpeg, thumbnailArgs(source, output, atSeconds), { timeoutMs: 60_000, signal: tools.signal, logger: tools.logger });
}
