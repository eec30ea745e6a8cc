import { describe, expect, it } from 'vitest';
import { classifyYtdlpError, DOWNLOAD_ERROR_CODES, RECOVERY_HINTS, worthAnotherAuthSource, worthAnotherPlayerClient } from '../../src/pipeline/ytdlp-errors.js';

/** Real yt-dlp error texts (from its source and issue tracker) → the stable code. */
describe('classifyYtdlpError', () => {
  it.each([
    ['ERROR: [youtube] abc: Sign in to confirm your age. This video may be inappropriate for some users.', 'age_verification'],
    ["ERROR: [youtube] abc: Sign in to confirm you’re not a bot. Use --cookies-from-browser or --cookies for the authentication.", 'sign_in_required'],
    ["ERROR: [youtube] abc: Sign in to confirm you're not a bot. This helps protect our community.", 'sign_in_required'],
    ['ERROR: [youtube] abc: Join this channel to get access to members-only content like this video', 'sign_in_required'],
    ['ERROR: [youtube] abc: Unable to download API page: HTTP Error 429: Too Many Requests', 'rate_limited'],
    ["ERROR: [youtube] abc: This content isn't available, try again later.", 'rate_limited'],
    ['ERROR: unable to download video data: HTTP Error 403: Forbidden', 'forbidden'],
    ['ERROR: [youtube] abc: Requested format is not available. Use --list-formats for a list of available formats', 'format_unavailable'],
    ['ERROR: [youtube] abc: This live event will begin in 3 hours.', 'format_unavailable'],
    ['ERROR: [youtube] abc: Video unavailable. This video has been removed by the uploader', 'video_unavailable'],
    ["ERROR: [youtube] abc: Private video. Sign in if you've been granted access to this video", 'video_unavailable'],
    ['ERROR: Unsupported URL: https://example.com/', 'invalid_url'],
    ['ERROR: No suitable extractor found for URL http://127.0.0.1/x', 'invalid_url'],
    ['ERROR: [generic] Unable to download webpage: <urlopen error [Errno 111] Connection refused>', 'network_error'],
    ['ERROR: [youtube] abc: Unable to download webpage: <urlopen error [Errno -3] Temporary failure in name resolution>', 'network_error'],
    ['FileNotFoundError: could not find chrome cookies database in "/root/.config/google-chrome"', 'cookies_unavailable'],
    ["http.cookiejar.LoadError: '/srv/c.txt' does not look like a Netscape format cookies file", 'cookies_unavailable'],
    ['ERROR: Postprocessing: something odd', 'download_failed'],
    ['', 'download_failed'],
  ])('%s → %s', (stderr, code) => {
    const r = classifyYtdlpError(`[info] starting\n${stderr}\n`);
    expect(r.code).toBe(code);
    expect(r.hint).toBe(RECOVERY_HINTS[r.code]);
    expect(r.message.length).toBeGreaterThan(5);
  });

  it('looks at ERROR lines first, so a warning does not decide the code', () => {
    const stderr = 'WARNING: [youtube] HTTP Error 403 on a thumbnail\nERROR: [youtube] abc: Requested format is not available';
    expect(classifyYtdlpError(stderr).code).toBe('format_unavailable');
  });

  it('has a hint for every code, and retry rules for the client-dependent errors only', () => {
    for (const code of DOWNLOAD_ERROR_CODES) expect(RECOVERY_HINTS[code].length).toBeGreaterThan(20);
    expect(DOWNLOAD_ERROR_CODES.filter(worthAnotherPlayerClient)).toEqual(['age_verification', 'sign_in_required', 'forbidden', 'format_unavailable']);
    expect(DOWNLOAD_ERROR_CODES.filter(worthAnotherAuthSource)).toEqual(['cookies_unavailable', 'age_verification', 'sign_in_required', 'forbidden', 'format_unavailable']);
  });
});
