import { describe, expect, it } from 'vitest';
import { checkDownloadUrl } from '../../src/pipeline/download-url.js';

const ID = 'dQw4w9WgXcQ';
const CANONICAL = `https://www.youtube.com/watch?v=${ID}`;

describe('checkDownloadUrl: accepted links', () => {
  it.each([
    [`https://www.youtube.com/watch?v=${ID}`],
    [`https://youtube.com/watch?v=${ID}`],
    [`http://m.youtube.com/watch?v=${ID}&t=42s`],
    [`https://music.youtube.com/watch?v=${ID}&list=RDAMVM${ID}`],
    [`https://www.youtube.com/watch?feature=share&v=${ID}#t=10`],
    [`HTTPS://WWW.YOUTUBE.COM/watch?v=${ID}`],
    [`https://youtu.be/${ID}`],
    [`https://youtu.be/${ID}?si=abcdEFGH&t=5`],
    [`https://www.youtube.com/shorts/${ID}`],
    [`https://www.youtube.com/embed/${ID}`],
    [`https://www.youtube.com/live/${ID}?feature=share`],
    [`  https://youtu.be/${ID}  `],
  ])('%s → the canonical watch URL', (input) => {
    expect(checkDownloadUrl(input, [])).toEqual({ ok: true, url: CANONICAL, host: expect.any(String), platform: true, videoId: ID });
  });

  it('allows DOWNLOAD_EXTRA_HOSTS, with any port or the named one, and drops the fragment', () => {
    expect(checkDownloadUrl('http://127.0.0.1:43210/media/clip.mp4#x', ['127.0.0.1'])).toEqual({
      ok: true,
      url: 'http://127.0.0.1:43210/media/clip.mp4',
      host: '127.0.0.1',
      platform: false,
    });
    expect(checkDownloadUrl('http://videos.school.example:8080/a.mp4', ['videos.school.example:8080']).ok).toBe(true);
    expect(checkDownloadUrl('https://videos.school.example/a.mp4', ['videos.school.example:443']).ok).toBe(true);
    expect(checkDownloadUrl('http://videos.school.example:8081/a.mp4', ['videos.school.example:8080']).ok).toBe(false);
  });
});

describe('checkDownloadUrl: refused links', () => {
  const extra = ['127.0.0.1', 'media.example.org'];
  it.each([
    ['look-alike suffix', `https://youtube.com.evil.com/watch?v=${ID}`],
    ['look-alike prefix', `https://evilyoutube.com/watch?v=${ID}`],
    ['platform name in the path', `https://evil.com/youtube.com/watch?v=${ID}`],
    ['other top-level domain', `https://youtube.co/watch?v=${ID}`],
    ['unofficial subdomain', `https://studio.youtube.com/watch?v=${ID}`],
    ['short-link look-alike', `https://youtu.be.evil.com/${ID}`],
    ['credentials', `https://user:pass@www.youtube.com/watch?v=${ID}`],
    ['platform as user name', `https://www.youtube.com@evil.com/watch?v=${ID}`],
    ['backslash parser confusion', `https://www.youtube.com\\@evil.com/watch?v=${ID}`],
    ['fragment trick', `https://evil.com#@www.youtube.com/watch?v=${ID}`],
    ['ftp scheme', `ftp://www.youtube.com/watch?v=${ID}`],
    ['file scheme', 'file:///etc/passwd'],
    ['javascript scheme', 'javascript:alert(1)//youtube.com'],
    ['data scheme', 'data:text/html,<script>alert(1)</script>'],
    ['scheme-relative', `//www.youtube.com/watch?v=${ID}`],
    ['no scheme', `www.youtube.com/watch?v=${ID}`],
    ['percent-encoded host', `https://%77ww.youtube.com/watch?v=${ID}`],
    ['encoded dot in host', `https://youtube.com%2eevil.com/watch?v=${ID}`],
    ['Cyrillic look-alike letter', `https://www.yоutube.com/watch?v=${ID}`],
    ['full-width letters', `https://ｙｏｕｔｕｂｅ.com/watch?v=${ID}`],
    ['punycode look-alike', `https://www.xn--yutube-wqf.com/watch?v=${ID}`],
    ['explicit port on the platform', `https://www.youtube.com:8443/watch?v=${ID}`],
    ['trailing dot', `https://www.youtube.com./watch?v=${ID}`],
    ['IPv6 loopback', 'http://[::1]/clip.mp4'],
    ['hex IPv4 for an allowed IP', 'http://0x7f.0.0.1/clip.mp4'],
    ['decimal IPv4 for an allowed IP', 'http://2130706433/clip.mp4'],
    ['short IPv4 for an allowed IP', 'http://127.1/clip.mp4'],
    ['allowed host as a subdomain', 'http://127.0.0.1.evil.com/clip.mp4'],
    ['tab inside', `https://www.youtube.com/watch?v=${ID}\t--exec=id`],
    ['newline inside', `https://www.youtube.com/watch?v=${ID}\n--exec id`],
    ['option injection', '--exec=touch /tmp/pwned'],
    ['playlist, not a video', 'https://www.youtube.com/playlist?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI'],
    ['channel, not a video', 'https://www.youtube.com/@SomeChannel'],
    ['redirect page', 'https://www.youtube.com/redirect?q=https://evil.com'],
    ['id with a path', 'https://www.youtube.com/watch?v=../../etc/pa'],
    ['two ids', `https://www.youtube.com/watch?v=${ID}&v=aaaaaaaaaaa`],
    ['short link with extra path', `https://youtu.be/${ID}/more`],
    ['empty', ''],
    ['very long', `https://www.youtube.com/watch?v=${ID}&x=${'a'.repeat(3000)}`],
  ])('%s: %s', (_label, input) => {
    const r = checkDownloadUrl(input, extra);
    expect(r.ok, JSON.stringify(r)).toBe(false);
    if (!r.ok) expect(r.reason.length).toBeGreaterThan(10);
  });

  it('refuses values that are not strings', () => {
    expect(checkDownloadUrl(undefined, []).ok).toBe(false);
    expect(checkDownloadUrl(42, []).ok).toBe(false);
  });
});
