import { describe, expect, it } from 'vitest';
import { authArgs, commonArgs, downloadArgs, FORMAT_SELECTOR, probeArgs, subtitleArgs, type YtdlpOptions } from '../../src/pipeline/ytdlp-args.js';
import { authSources, englishSubtitleLangs } from '../../src/pipeline/ytdlp.js';

const BASE = ['--ignore-config', '--no-playlist', '--no-progress', '--no-colors', '--socket-timeout', '30', '--retries', '3', '--fragment-retries', '3'];
const platform: YtdlpOptions = { auth: { source: 'none' }, playerClients: ['default'], platform: true };

describe('yt-dlp argument builders', () => {
  it('prefers 720p H.264 + AAC, then any 720p-or-lower, then the best', () => {
    expect(FORMAT_SELECTOR).toBe(
      'bv*[height<=720][vcodec^=avc1]+ba[acodec^=mp4a]/b[height<=720][vcodec^=avc1][acodec^=mp4a]/bv*[height<=720]+ba/b[height<=720]/bv*+ba/b',
    );
  });

  it('probe: platform links switch the generic extractor off and put the URL after --', () => {
    expect(probeArgs(platform, 'https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toEqual([
      ...BASE,
      '--use-extractors',
      'default,-generic',
      '--dump-single-json',
      '--format',
      FORMAT_SELECTOR,
      '--',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    ]);
  });

  it('probe: an extra host keeps the generic extractor; a URL that looks like an option stays a URL', () => {
    const args = probeArgs({ ...platform, platform: false }, '--exec=id');
    expect(args).not.toContain('--use-extractors');
    expect(args.slice(-2)).toEqual(['--', '--exec=id']);
  });

  it('auth: browser cookies, cookie file, none', () => {
    expect(authArgs({ source: 'browser', browser: 'firefox:default-release' })).toEqual(['--cookies-from-browser', 'firefox:default-release']);
    expect(authArgs({ source: 'cookiefile', cookieFile: '/srv/cookies.txt' })).toEqual(['--cookies', '/srv/cookies.txt']);
    expect(authArgs({ source: 'none' })).toEqual([]);
  });

  it('common: user agent as a header, player clients for the platform, explicit ffmpeg', () => {
    expect(
      commonArgs({
        auth: { source: 'cookiefile', cookieFile: '/c.txt' },
        playerClients: ['tv', 'web_safari'],
        platform: true,
        userAgent: 'Mozilla/5.0 Test',
        ffmpegLocation: '/opt/ffmpeg/bin/ffmpeg',
      }),
    ).toEqual([
      ...BASE,
      '--use-extractors',
      'default,-generic',
      '--cookies',
      '/c.txt',
      '--add-headers',
      'User-Agent:Mozilla/5.0 Test',
      '--extractor-args',
      'youtube:player_client=tv,web_safari',
      '--ffmpeg-location',
      '/opt/ffmpeg/bin/ffmpeg',
    ]);
  });

  it('download: re-uses the info JSON, merges into MP4 with fixed names, thumbnail on request', () => {
    expect(downloadArgs(platform, '/w/source.info.json', '/w', true)).toEqual([
      ...BASE,
      '--use-extractors',
      'default,-generic',
      '--load-info-json',
      '/w/source.info.json',
      '--format',
      FORMAT_SELECTOR,
      '--merge-output-format',
      'mp4',
      '--no-mtime',
      '--paths',
      '/w',
      '--output',
      'video.%(ext)s',
      '--write-thumbnail',
      '--output',
      'thumbnail:thumbnail.%(ext)s',
      '--progress',
      '--newline',
      '--progress-template',
      'download:kvq-progress %(progress.status)s %(progress.downloaded_bytes)s %(progress.total_bytes)s %(progress.total_bytes_estimate)s %(progress.fragment_index)s %(progress.fragment_count)s',
    ]);
    expect(downloadArgs(platform, '/w/i.json', '/w', false)).not.toContain('--write-thumbnail');
  });

  it('subtitles: English manual and automatic, WebVTT, no media', () => {
    expect(subtitleArgs({ ...platform, platform: false }, '/w/i.json', '/w')).toEqual([
      ...BASE,
      '--load-info-json',
      '/w/i.json',
      '--skip-download',
      '--write-subs',
      '--write-auto-subs',
      '--sub-langs',
      'en.*,en',
      '--sub-format',
      'vtt/srt/best',
      '--convert-subs',
      'vtt',
      '--paths',
      '/w',
      '--output',
      'video.%(ext)s',
      '--output',
      'subtitle:video.%(ext)s',
    ]);
  });
});

describe('auth sources per DOWNLOAD_AUTH_MODE', () => {
  it('auto tries the browser, then the cookie file when it exists, then none', () => {
    expect(authSources({ authMode: 'auto', cookiesBrowser: 'chrome', cookieFile: '/etc/hostname' }).map((a) => a.source)).toEqual(['browser', 'cookiefile', 'none']);
    expect(authSources({ authMode: 'auto', cookiesBrowser: 'chrome', cookieFile: '/nonexistent/cookies.txt' }).map((a) => a.source)).toEqual(['browser', 'none']);
    expect(authSources({ authMode: 'auto', cookiesBrowser: 'chrome' }).map((a) => a.source)).toEqual(['browser', 'none']);
  });

  it('the other modes use exactly one source', () => {
    expect(authSources({ authMode: 'browser', cookiesBrowser: 'firefox' })).toEqual([{ source: 'browser', browser: 'firefox' }]);
    expect(authSources({ authMode: 'cookiefile', cookiesBrowser: 'chrome', cookieFile: '/c.txt' })).toEqual([{ source: 'cookiefile', cookieFile: '/c.txt' }]);
    expect(authSources({ authMode: 'none', cookiesBrowser: 'chrome' })).toEqual([{ source: 'none' }]);
  });
});

describe('englishSubtitleLangs', () => {
  it('orders manual before automatic and plain en first', () => {
    expect(
      englishSubtitleLangs({
        subtitles: { 'en-GB': [], fr: [], en: [] },
        automatic_captions: { 'en-orig': [], en: [], de: [] },
      }),
    ).toEqual(['en', 'en-GB', 'en-orig']);
    expect(englishSubtitleLangs({ subtitles: null, automatic_captions: { es: [] } })).toEqual([]);
  });
});
