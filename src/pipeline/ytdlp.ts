import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import { BinaryMissingError, ProcessError, lastLines, runProcess } from './process-runner.js';
import { writeAtomic } from './files.js';
import { YtdlpProgressTracker } from './progress.js';
import { downloadArgs, probeArgs, subtitleArgs, type AuthChoice, type AuthSource, type YtdlpOptions } from './ytdlp-args.js';
import { classified, classifyYtdlpError, worthAnotherAuthSource, worthAnotherPlayerClient, type ClassifiedError } from './ytdlp-errors.js';

/**
 * The yt-dlp domain wrapper: tries the auth sources and player clients in order, downloads into
 * a work dir the caller owns (and deletes), and fetches subtitles as a separate, non-fatal step.
 */
export interface YtdlpSettings {
  ytdlp: string;
  ffmpegLocation?: string;
  authMode: 'auto' | 'browser' | 'cookiefile' | 'none';
  cookiesBrowser: string;
  cookieFile?: string;
  userAgent?: string;
  /** for the whole download, every attempt included */
  timeoutMs: number;
  logger?: Logger;
  signal?: AbortSignal;
  /** 0..1 for the whole download (probe, media, subtitles) with a short text */
  onProgress?: (fraction: number, message: string) => void;
}

/**
 * Player clients to try, in order, on errors that depend on the client (sign-in and bot checks,
 * age gate, 403 on the media URL, no formats). ['default'] is yt-dlp's own choice; names a
 * given yt-dlp release does not know are skipped by it with a warning.
 * https://github.com/yt-dlp/yt-dlp/wiki/Extractors#youtube
 */
export const PLAYER_CLIENT_ATTEMPTS: readonly (readonly string[])[] = [['default'], ['tv', 'web_safari'], ['mweb', 'android_vr'], ['web_embedded']];

export const videoInfoSchema = z
  .object({
    id: z.string().min(1),
    title: z.string().default(''),
    duration: z.number().nullish(),
    _type: z.string().optional(),
    is_live: z.boolean().nullish(),
    thumbnail: z.string().nullish(),
    thumbnails: z.array(z.unknown()).nullish(),
    subtitles: z.record(z.string(), z.unknown()).nullish(),
    automatic_captions: z.record(z.string(), z.unknown()).nullish(),
    /** the streams the format selector picked when they are fetched apart (video + audio) */
    requested_formats: z.array(z.unknown()).nullish(),
  })
  .loose();
export type VideoInfo = z.infer<typeof videoInfoSchema>;

export interface YtdlpDownload {
  info: VideoInfo;
  /** the full info JSON (format URLs included) in the work dir */
  infoFile: string;
  videoFile: string;
  /** the platform's thumbnail as downloaded (any image format), if it had one */
  thumbnailFile?: string;
  /** the chosen English subtitle file (WebVTT), if any */
  subtitleFile?: string;
  subtitleWarning?: string;
  authSource: AuthSource;
  playerClients: string[];
}

export class DownloadFailure extends Error {
  constructor(
    readonly error: ClassifiedError,
    readonly authSource?: AuthSource,
    readonly playerClients?: string[],
    /** yt-dlp's own last error line, for the admin */
    readonly toolMessage?: string,
  ) {
    super(error.message);
    this.name = 'DownloadFailure';
  }
}

/** Which auth sources a mode tries, in order (auto: browser cookies, then the cookie file, then none). */
export function authSources(s: Pick<YtdlpSettings, 'authMode' | 'cookiesBrowser' | 'cookieFile'>): AuthChoice[] {
  const browser: AuthChoice = { source: 'browser', browser: s.cookiesBrowser };
  const file: AuthChoice = { source: 'cookiefile', cookieFile: s.cookieFile };
  switch (s.authMode) {
    case 'browser':
      return [browser];
    case 'cookiefile':
      return [file];
    case 'none':
      return [{ source: 'none' }];
    case 'auto':
      return s.cookieFile && fs.existsSync(s.cookieFile) ? [browser, file, { source: 'none' }] : [browser, { source: 'none' }];
  }
}

/**
 * Probe + download with retries. `onInfo` runs after each successful probe, before anything is
 * downloaded (the caller locks the video id there and may throw to stop).
 */
export async function ytdlpDownload(
  s: YtdlpSettings,
  url: string,
  platform: boolean,
  workDir: string,
  onInfo: (info: VideoInfo) => void | Promise<void>,
): Promise<YtdlpDownload> {
  const deadline = Date.now() + s.timeoutMs;
  const clientLists = platform ? PLAYER_CLIENT_ATTEMPTS : [['default']];
  let failure: DownloadFailure | undefined;
  for (const auth of authSources(s)) {
    if (auth.source === 'cookiefile' && !(auth.cookieFile && fs.existsSync(auth.cookieFile))) {
      failure = keepBetter(failure, new DownloadFailure(classified('cookies_unavailable', 'The cookie file (DOWNLOAD_COOKIE_FILE) is not set or does not exist.'), auth.source));
      continue;
    }
    for (const clients of clientLists) {
      const opts: YtdlpOptions = { auth, playerClients: clients, userAgent: s.userAgent, platform, ffmpegLocation: s.ffmpegLocation };
      const attemptDir = path.join(workDir, `attempt-${auth.source}-${clients.join('+')}`);
      fs.mkdirSync(attemptDir, { recursive: true });
      try {
        const done = await attempt(s, opts, url, attemptDir, deadline, onInfo);
        return { ...done, authSource: auth.source, playerClients: [...clients] };
      } catch (err) {
        fs.rmSync(attemptDir, { recursive: true, force: true });
        const f = toFailure(err, auth.source, [...clients]);
        s.logger?.info({ url, auth: auth.source, clients, code: f.error.code }, 'yt-dlp attempt failed');
        failure = keepBetter(failure, f);
        if (f.error.code === 'cookies_unavailable') break;
        if (!worthAnotherPlayerClient(f.error.code)) throw f;
      }
    }
    if (failure && !worthAnotherAuthSource(failure.error.code)) throw failure;
  }
  throw failure ?? new DownloadFailure(classified('download_failed'));
}

const PROBE_SHARE = 0.05;
const MEDIA_END = 0.9;

async function attempt(
  s: YtdlpSettings,
  o: YtdlpOptions,
  url: string,
  dir: string,
  deadline: number,
  onInfo: (info: VideoInfo) => void | Promise<void>,
): Promise<Omit<YtdlpDownload, 'authSource' | 'playerClients'>> {
  const run = (args: string[], onLine?: (line: string) => void) =>
    runProcess(s.ytdlp, args, {
      timeoutMs: Math.max(1000, deadline - Date.now()),
      signal: s.signal,
      logger: s.logger,
      maxStdoutBytes: 64 * 1024 * 1024,
      onStdoutLine: onLine,
      onStderrLine: onLine,
    });
  const report = s.onProgress ?? (() => undefined);
  report(0, 'Looking the video up');

  const probe = await run(probeArgs(o, url));
  const raw = probe.stdout.toString('utf8');
  let info: VideoInfo;
  try {
    info = videoInfoSchema.parse(JSON.parse(raw));
  } catch {
    throw new DownloadFailure(classified('download_failed', 'yt-dlp did not return readable video information.'));
  }
  if (info._type && info._type !== 'video') throw new DownloadFailure(classified('invalid_url', 'This link is a playlist or a channel, not one video.'));
  if (info.is_live) throw new DownloadFailure(classified('format_unavailable', 'Live streams cannot be downloaded; try again when the stream has ended.'));
  await onInfo(info);

  const infoFile = path.join(dir, 'source.info.json');
  writeAtomic(infoFile, raw);
  const hasThumbnail = Boolean(info.thumbnail || info.thumbnails?.length);
  // the probe is the first 5 %, the media files up to 90 %, subtitles and checks the rest
  const tracker = new YtdlpProgressTracker(Math.max(1, info.requested_formats?.length ?? 1));
  report(PROBE_SHARE, 'Downloading');
  await run(downloadArgs(o, infoFile, dir, hasThumbnail), (line) => {
    const f = tracker.push(line);
    if (f !== undefined) report(PROBE_SHARE + (MEDIA_END - PROBE_SHARE) * f, 'Downloading');
  });
  report(MEDIA_END, 'Fetching subtitles');
  const videoFile = findOutput(dir, /^video\.(?!(?:part|ytdl|json|vtt|srt|temp)$)[a-z0-9_]+$/i);
  if (!videoFile) throw new DownloadFailure(classified('video_file_missing'));
  const thumbnailFile = findOutput(dir, /^thumbnail\.(?:jpe?g|png|webp|gif)$/i);

  const subs = await fetchSubtitles(s, o, info, infoFile, dir, run);
  return { info, infoFile, videoFile, thumbnailFile, ...subs };
}

/** English subtitles in preference order: manual 'en', other manual en-*, automatic 'en', other automatic en-*. */
export function englishSubtitleLangs(info: Pick<VideoInfo, 'subtitles' | 'automatic_captions'>): string[] {
  const pick = (rec: Record<string, unknown> | null | undefined) => {
    const keys = Object.keys(rec ?? {}).filter((k) => /^en(?:[-_]|$)/i.test(k));
    return [...keys.filter((k) => k === 'en'), ...keys.filter((k) => k !== 'en').sort()];
  };
  return [...new Set([...pick(info.subtitles), ...pick(info.automatic_captions)])];
}

async function fetchSubtitles(
  s: YtdlpSettings,
  o: YtdlpOptions,
  info: VideoInfo,
  infoFile: string,
  dir: string,
  run: (args: string[]) => Promise<unknown>,
): Promise<{ subtitleFile?: string; subtitleWarning?: string }> {
  const langs = englishSubtitleLangs(info);
  if (langs.length === 0) return { subtitleWarning: 'No English subtitles are available for this video; questions will rely on the pictures.' };
  try {
    await run(subtitleArgs(o, infoFile, dir));
  } catch (err) {
    if (err instanceof BinaryMissingError || (err instanceof ProcessError && err.kind === 'aborted')) throw err;
    const why = err instanceof ProcessError ? classifyYtdlpError(err.stderr) : classified('download_failed');
    s.logger?.warn({ code: why.code, err: (err as Error).message }, 'subtitle download failed');
    return { subtitleWarning: `The English subtitles could not be downloaded (${why.code}): ${why.message}` };
  }
  for (const lang of langs) {
    const file = path.join(dir, `video.${lang}.vtt`);
    if (fs.existsSync(file) && fs.statSync(file).size > 0) return { subtitleFile: file };
  }
  return { subtitleWarning: 'yt-dlp wrote no English subtitle file for this video.' };
}

function findOutput(dir: string, re: RegExp): string | undefined {
  const name = fs
    .readdirSync(dir)
    .filter((f) => re.test(f))
    .sort()[0];
  return name ? path.join(dir, name) : undefined;
}

function toFailure(err: unknown, authSource: AuthSource, clients: string[]): DownloadFailure {
  if (err instanceof DownloadFailure) return new DownloadFailure(err.error, err.authSource ?? authSource, err.playerClients ?? clients, err.toolMessage);
  if (err instanceof BinaryMissingError) return new DownloadFailure(classified('binary_missing', err.message), authSource, clients);
  if (err instanceof ProcessError) {
    if (err.kind === 'timeout') return new DownloadFailure(classified('timeout'), authSource, clients);
    if (err.kind === 'aborted') return new DownloadFailure(classified('cancelled'), authSource, clients);
    const errorLine = lastLines(err.stderr.split('\n').filter((l) => /ERROR|Error:/.test(l)).join('\n'), 1);
    return new DownloadFailure(classifyYtdlpError(err.stderr), authSource, clients, (errorLine || lastLines(err.stderr, 1)).slice(0, 300));
  }
  throw err;
}

/** The failure to report: a real platform answer beats "cookies unavailable" from an earlier source. */
function keepBetter(prev: DownloadFailure | undefined, next: DownloadFailure): DownloadFailure {
  if (!prev) return next;
  if (next.error.code === 'cookies_unavailable' && prev.error.code !== 'cookies_unavailable') return prev;
  return next;
}
