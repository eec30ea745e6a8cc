/**
 * yt-dlp's error text → a stable `error_code` and a `recovery_hint` a person can act on.
 * Rules are tried in order (the age gate's text also says "Sign in", so it comes first).
 * The table is documented in docs/pipeline.md; keep the two in step.
 */
export const DOWNLOAD_ERROR_CODES = [
  'invalid_url',
  'binary_missing',
  'download_in_progress',
  'cookies_unavailable',
  'age_verification',
  'sign_in_required',
  'rate_limited',
  'forbidden',
  'format_unavailable',
  'video_unavailable',
  'network_error',
  'timeout',
  'video_file_missing',
  'invalid_container',
  'download_failed',
  'cancelled',
] as const;
export type DownloadErrorCode = (typeof DOWNLOAD_ERROR_CODES)[number];

export interface ClassifiedError {
  code: DownloadErrorCode;
  message: string;
  hint: string;
}

export const RECOVERY_HINTS: Record<DownloadErrorCode, string> = {
  invalid_url: 'Paste the link of one video from youtube.com or youtu.be, for example https://www.youtube.com/watch?v=dQw4w9WgXcQ.',
  binary_missing: 'Install the missing tool on the server (apt-get install yt-dlp ffmpeg) or set YTDLP_PATH / FFMPEG_PATH / FFPROBE_PATH to it.',
  download_in_progress: 'Wait for the running download of this video to finish, then refresh the video list.',
  cookies_unavailable:
    'Check DOWNLOAD_COOKIES_BROWSER (a browser with a profile on this server) or DOWNLOAD_COOKIE_FILE (a Netscape cookies.txt the server can read), or set DOWNLOAD_AUTH_MODE=none.',
  age_verification:
    'The video is age-restricted. Export cookies of a signed-in, age-verified account to a cookies.txt file and set DOWNLOAD_COOKIE_FILE (or DOWNLOAD_AUTH_MODE=browser with a signed-in browser), then try again.',
  sign_in_required:
    'The platform wants a signed-in user. Set DOWNLOAD_COOKIE_FILE to a fresh cookies.txt export (or use DOWNLOAD_AUTH_MODE=browser), and update yt-dlp (YTDLP_PATH) if it is old.',
  rate_limited: 'The platform is limiting requests from this server. Wait 15 to 60 minutes before trying again, or use cookies of a signed-in account.',
  forbidden:
    'The platform refused the file (HTTP 403). Update yt-dlp to the newest release (YTDLP_PATH), then try again; cookies of a signed-in account can help.',
  format_unavailable: 'No downloadable format was offered. Update yt-dlp (YTDLP_PATH) and try again; the video may also be a live stream or a premiere that has not started.',
  video_unavailable: 'The video is private, removed or blocked in this country. Check the link in a browser.',
  network_error: 'The server could not reach the video host. Check its internet connection and DNS, then try again.',
  timeout: 'The download took too long and was stopped. Try again later, or raise DOWNLOAD_TIMEOUT_MS for long videos.',
  video_file_missing: 'yt-dlp finished without writing a video file. Update yt-dlp (YTDLP_PATH) and try again.',
  invalid_container: 'The downloaded file is not a playable MP4 and could not be repaired with ffmpeg. Try again, or update yt-dlp and ffmpeg.',
  download_failed: 'The download failed. Try again; if it keeps failing, update yt-dlp (YTDLP_PATH) and read the server log for details.',
  cancelled: 'The download was stopped before it finished (by the admin, or because the server shut down); start it again.',
};

const MESSAGES: Record<DownloadErrorCode, string> = {
  invalid_url: 'This link cannot be downloaded.',
  binary_missing: 'A tool the download needs is not installed on the server.',
  download_in_progress: 'This video is already being downloaded.',
  cookies_unavailable: 'The configured cookies could not be loaded.',
  age_verification: 'The platform asks for age verification before showing this video.',
  sign_in_required: 'The platform asks for a signed-in user before showing this video.',
  rate_limited: 'The platform is rate-limiting downloads from this server.',
  forbidden: 'The platform refused access to the video file (HTTP 403).',
  format_unavailable: 'No downloadable video format is available.',
  video_unavailable: 'The video is unavailable (private, removed or blocked).',
  network_error: 'The video host could not be reached.',
  timeout: 'The download took too long and was stopped.',
  video_file_missing: 'The download finished but no video file was written.',
  invalid_container: 'The downloaded file is not a valid, playable video.',
  download_failed: 'The download failed.',
  cancelled: 'The download was cancelled.',
};

const RULES: [DownloadErrorCode, RegExp][] = [
  ['cookies_unavailable', /could not find \S+ cookies database|failed to (?:load|decrypt|read) cookies|cookies? file .*(?:does not exist|not found)|unsupported browser specified for cookies|does not look like a Netscape format cookies file/i],
  ['age_verification', /confirm your age|age[- ]restricted|age[- ]gate|inappropriate for some users|age verification/i],
  ['rate_limited', /HTTP Error 429|Too Many Requests|rate[- ]limit|has been rate[- ]limited|try again later\.?\s*$/im],
  ['sign_in_required', /sign in to confirm|confirm you(?:'|’)?re not a bot|login required|requires? (?:authentication|login|sign[- ]?in)|members[- ]only|join this channel|use --cookies|cookies (?:are|is) (?:no longer valid|invalid)|account.*(?:terminated|required)/i],
  ['forbidden', /HTTP Error 403|403:? Forbidden/i],
  ['format_unavailable', /requested format (?:is )?not available|no video formats found|no formats? (?:found|available)|only images are available|this live event will begin|premieres in/i],
  ['video_unavailable', /video unavailable|private video|this video (?:has been removed|is not available|is private|is unavailable)|not available in your country|HTTP Error 404|has been terminated|video does not exist/i],
  ['invalid_url', /unsupported url|no suitable extractor|is not a valid url|incomplete youtube id|invalid (?:video )?id/i],
  ['network_error', /unable to download (?:webpage|api page)|connection refused|name or service not known|temporary failure in name resolution|network is unreachable|timed out|getaddrinfo failed|Errno 111|Errno -[23]/i],
];

/** Picks the first rule that matches yt-dlp's stderr (its ERROR lines first, then the rest). */
export function classifyYtdlpError(stderr: string): ClassifiedError {
  const errorLines = stderr
    .split(/\r?\n/)
    .filter((l) => /^ERROR:|Error:|Exception:/.test(l))
    .join('\n');
  for (const text of [errorLines, stderr]) {
    if (!text) continue;
    for (const [code, re] of RULES) if (re.test(text)) return classified(code);
  }
  return classified('download_failed');
}

export function classified(code: DownloadErrorCode, message = MESSAGES[code]): ClassifiedError {
  return { code, message, hint: RECOVERY_HINTS[code] };
}

/** Errors that another player client may get past (they depend on which client asked). */
export function worthAnotherPlayerClient(code: DownloadErrorCode): boolean {
  return code === 'format_unavailable' || code === 'age_verification' || code === 'sign_in_required' || code === 'forbidden';
}

/** Errors after which another auth source (the next cookies, or none) may help. */
export function worthAnotherAuthSource(code: DownloadErrorCode): boolean {
  return code === 'cookies_unavailable' || worthAnotherPlayerClient(code);
}
