/**
 * Pure builders of yt-dlp command lines (tested by exact output). A download runs in three
 * steps that share the same auth and player-client arguments:
 *   1. probe:     `-J` prints the video's info JSON (format selection included, so a missing
 *                 format fails here, before anything is written);
 *   2. download:  `--load-info-json` re-uses that JSON (no second page fetch) and writes
 *                 `video.mp4` (+ the platform's thumbnail) into a temp dir;
 *   3. subtitles: the same, with `--skip-download`; kept apart because yt-dlp treats a
 *                 subtitle failure as fatal, and for us it is only a warning.
 * Flags: https://github.com/yt-dlp/yt-dlp#usage-and-options
 */
import { YTDLP_PROGRESS_TEMPLATE } from './progress.js';

export type AuthSource = 'browser' | 'cookiefile' | 'none';

export interface AuthChoice {
  source: AuthSource;
  /** `--cookies-from-browser` value, e.g. "chrome" or "firefox:default-release" */
  browser?: string;
  cookieFile?: string;
}

export interface YtdlpOptions {
  auth: AuthChoice;
  /** youtube player clients to try; ['default'] leaves yt-dlp's own choice */
  playerClients: readonly string[];
  userAgent?: string;
  /** the platform's own hosts: the generic extractor is switched off for them */
  platform: boolean;
  /** an explicit ffmpeg binary for merging and subtitle conversion */
  ffmpegLocation?: string;
}

/**
 * 720p H.264 + AAC first (merged into MP4), then any 720p-or-lower video + audio, then the best
 * there is. A bare file (unknown height and codec) falls through to the last choice; the result
 * is checked with ffprobe afterwards.
 */
export const FORMAT_SELECTOR = [
  'bv*[height<=720][vcodec^=avc1]+ba[acodec^=mp4a]',
  'b[height<=720][vcodec^=avc1][acodec^=mp4a]',
  'bv*[height<=720]+ba',
  'b[height<=720]',
  'bv*+ba',
  'b',
].join('/');

/** English manual subtitles first, automatic captions where there are none. */
export const SUBTITLE_LANGS = 'en.*,en';

export function authArgs(auth: AuthChoice): string[] {
  switch (auth.source) {
    case 'browser':
      return ['--cookies-from-browser', auth.browser ?? 'chrome'];
    case 'cookiefile':
      return ['--cookies', auth.cookieFile ?? ''];
    case 'none':
      return [];
  }
}

export function commonArgs(o: YtdlpOptions): string[] {
  const args = [
    // the operator's yt-dlp config files must not change what we run
    '--ignore-config',
    '--no-playlist',
    '--no-progress',
    '--no-colors',
    '--socket-timeout',
    '30',
    '--retries',
    '3',
    '--fragment-retries',
    '3',
  ];
  if (o.platform) args.push('--use-extractors', 'default,-generic');
  args.push(...authArgs(o.auth));
  if (o.userAgent) args.push('--add-headers', `User-Agent:${o.userAgent}`);
  const clients = o.playerClients.filter((c) => c !== 'default');
  if (o.platform && clients.length > 0) args.push('--extractor-args', `youtube:player_client=${clients.join(',')}`);
  if (o.ffmpegLocation) args.push('--ffmpeg-location', o.ffmpegLocation);
  return args;
}

/** Step 1: the info JSON on stdout. The URL comes last, after `--`, so it is never an option. */
export function probeArgs(o: YtdlpOptions, url: string): string[] {
  return [...commonArgs(o), '--dump-single-json', '--format', FORMAT_SELECTOR, '--', url];
}

/** Step 2: `video.mp4` (and `thumbnail.<ext>` when asked) in `dir`. */
export function downloadArgs(o: YtdlpOptions, infoFile: string, dir: string, withThumbnail: boolean): string[] {
  const args = [
    ...commonArgs(o),
    '--load-info-json',
    infoFile,
    '--format',
    FORMAT_SELECTOR,
    '--merge-output-format',
    'mp4',
    '--no-mtime',
    '--paths',
    dir,
    '--output',
    'video.%(ext)s',
  ];
  if (withThumbnail) args.push('--write-thumbnail', '--output', 'thumbnail:thumbnail.%(ext)s');
  // progress back on for this step (a later --progress beats the common --no-progress), one
  // line per report in our own format, parsed by pipeline/progress.ts
  args.push('--progress', '--newline', '--progress-template', YTDLP_PROGRESS_TEMPLATE);
  return args;
}

/** Step 3: `video.<lang>.vtt` files in `dir`, converted to WebVTT when the source is another format. */
export function subtitleArgs(o: YtdlpOptions, infoFile: string, dir: string): string[] {
  return [
    ...commonArgs(o),
    '--load-info-json',
    infoFile,
    '--skip-download',
    '--write-subs',
    '--write-auto-subs',
    '--sub-langs',
    SUBTITLE_LANGS,
    '--sub-format',
    'vtt/srt/best',
    '--convert-subs',
    'vtt',
    '--paths',
    dir,
    '--output',
    'video.%(ext)s',
    '--output',
    'subtitle:video.%(ext)s',
  ];
}
