import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginAdmin, startTestApp, type Agent, type TestApp } from '../helpers/app.js';
import { ffmpeg, makeClip, probe } from '../fixtures/media.js';

/**
 * Platform answers that cannot be produced offline (age gate, bot check, rate limit, 403) come
 * from a scripted fake yt-dlp (test/fixtures/fake-yt-dlp.mjs) that prints yt-dlp's real error
 * texts; the classification, retries, auth fall-backs and clean-up under test are the real code.
 */
const FAKE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'fake-yt-dlp.mjs');
let tmp: string;
let log: string;

const watch = (id: string) => `https://www.youtube.com/watch?v=${id}`;
const calls = (): string[][] => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
const probes = () => calls().filter((a) => a.includes('--dump-single-json'));
const clientsOf = (args: string[]) => (args.includes('--extractor-args') ? args[args.indexOf('--extractor-args') + 1] : 'default');

beforeAll(() => {
  fs.chmodSync(FAKE, 0o755);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-fake-ytdlp-'));
  log = path.join(tmp, 'calls.jsonl');
  process.env.FAKE_YTDLP_LOG = log;
  process.env.FAKE_YTDLP_MEDIA = makeClip(path.join(tmp, 'media.mp4'), { seconds: 2 });
  process.env.FAKE_YTDLP_THUMB = path.join(tmp, 'thumb.png');
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc=s=1280x720:d=1', '-frames:v', '1', process.env.FAKE_YTDLP_THUMB]);
});
afterAll(() => {
  delete process.env.FAKE_YTDLP_LOG;
  delete process.env.FAKE_YTDLP_MEDIA;
  delete process.env.FAKE_YTDLP_THUMB;
  fs.rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => fs.rmSync(log, { force: true }));

async function appWith(env: Record<string, string>): Promise<{ t: TestApp; admin: Agent }> {
  const t = await startTestApp({ YTDLP_PATH: FAKE, DOWNLOAD_AUTH_MODE: 'none', ...env });
  return { t, admin: await loginAdmin(t.agent()) };
}

describe('error classification and player-client retries (auth mode none)', () => {
  let t: TestApp;
  let admin: Agent;
  beforeAll(async () => ({ t, admin } = await appWith({})));
  afterAll(() => t.close());
  const download = (id: string) => admin.post('/api/download').type('form').send({ url: watch(id) });

  it('age gate: every player client is tried, then age_verification with a cookie hint', async () => {
    const res = await download('agegate0001');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, error_code: 'age_verification', auth_source: 'none', used_player_client: ['web_embedded'] });
    expect(res.body.recovery_hint).toMatch(/DOWNLOAD_COOKIE_FILE/);
    expect(res.body.message).toMatch(/Sign in to confirm your age/);
    expect(probes().map(clientsOf)).toEqual(['default', 'youtube:player_client=tv,web_safari', 'youtube:player_client=mweb,android_vr', 'youtube:player_client=web_embedded']);
    expect(await t.db.first('SELECT 1 FROM videos WHERE id = ?', ['agegate0001'])).toBeUndefined();
  });

  it('bot check: sign_in_required', async () => {
    const res = await download('signin00001');
    expect(res.body).toMatchObject({ success: false, error_code: 'sign_in_required' });
    expect(res.body.recovery_hint).toMatch(/cookies/);
  });

  it('rate limit: rate_limited at once, without hammering the platform with retries', async () => {
    const res = await download('ratelimit01');
    expect(res.body).toMatchObject({ success: false, error_code: 'rate_limited', used_player_client: ['default'] });
    expect(res.body.recovery_hint).toMatch(/Wait/);
    expect(probes()).toHaveLength(1);
  });

  it('403 on the media file: retried with each client, then forbidden; the first row is removed', async () => {
    const res = await download('forbidden01');
    expect(res.body).toMatchObject({ success: false, error_code: 'forbidden', video_id: 'forbidden01' });
    expect(calls().filter((a) => a.includes('--load-info-json'))).toHaveLength(4);
    expect(await t.db.first('SELECT 1 FROM videos WHERE id = ?', ['forbidden01'])).toBeUndefined();
    expect(fs.existsSync(path.join(t.dataDir, 'videos', 'forbidden01'))).toBe(false);
  });

  it('a client that gets past the bot check is used for the video and the subtitles, and reported', async () => {
    const res = await download('clientretr1');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, video_id: 'clientretr1', auth_source: 'none', used_player_client: ['mweb', 'android_vr'] });
    const later = calls().filter((a) => a.includes('--load-info-json'));
    expect(later.map(clientsOf)).toEqual(['youtube:player_client=mweb,android_vr', 'youtube:player_client=mweb,android_vr']);
    for (const p of probes()) expect(p.slice(-2)).toEqual(['--', watch('clientretr1')]);
    expect(calls().every((a) => a.includes('--use-extractors'))).toBe(true);
    const dir = path.join(t.dataDir, 'videos', 'clientretr1');
    expect(fs.readFileSync(path.join(dir, 'video.en.vtt'), 'utf8')).toContain('Hello from the fake');
    // the platform's 1280x720 PNG thumbnail became a JPEG at most 640 px wide
    expect(calls().find((a) => a.includes('--write-thumbnail'))).toBeDefined();
    expect(probe(path.join(dir, 'thumbnail.jpg'))).toMatchObject({ videoCodec: 'mjpeg', height: 360 });
    expect(res.body.thumbnail).toBe('/media/videos/clientretr1/thumbnail');
    // the stored info JSON keeps no format URLs or cookies
    expect(fs.readFileSync(path.join(dir, 'info.json'), 'utf8')).not.toMatch(/SID=secret|example\.invalid/);
  });

  it('a subtitle failure is only a warning', async () => {
    const res = await download('subsfail001');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.subtitle_warning).toMatch(/rate_limited/);
    expect(await t.db.first('SELECT subtitle_file, state FROM videos WHERE id = ?', ['subsfail001'])).toEqual({ subtitle_file: null, state: 'downloaded' });
  });

  it('yt-dlp that writes no file: video_file_missing', async () => {
    const res = await download('nofilewrit1');
    expect(res.body).toMatchObject({ success: false, error_code: 'video_file_missing' });
  });

  it('refuses a second download of a video that is downloading', async () => {
    const gate = fs.mkdtempSync(path.join(tmp, 'gate-'));
    process.env.FAKE_YTDLP_GATE = gate;
    try {
      const first = download('gatedvideo1').then((r) => r);
      await waitFor(() => fs.existsSync(path.join(gate, 'started')));
      const second = await admin.post('/api/download').type('form').send({ url: `https://youtu.be/gatedvideo1` });
      expect(second.status).toBe(409);
      expect(second.body).toMatchObject({ success: false, error_code: 'download_in_progress' });
      expect(second.body.message).toMatch(/already being downloaded/);
      fs.writeFileSync(path.join(gate, 'release'), '');
      const done = await first;
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(await t.db.all('SELECT key FROM video_locks')).toEqual([]);
    } finally {
      delete process.env.FAKE_YTDLP_GATE;
    }
  });
});

describe('auth sources', () => {
  it('auto: browser cookies fail, the cookie file works and is reported', async () => {
    const cookies = path.join(tmp, 'cookies.txt');
    fs.writeFileSync(cookies, '# Netscape HTTP Cookie File\n');
    const { t, admin } = await appWith({ DOWNLOAD_AUTH_MODE: 'auto', DOWNLOAD_COOKIE_FILE: cookies, DOWNLOAD_USER_AGENT: 'KidsQuiz/1.0' });
    try {
      const res = await admin.post('/api/download').type('form').send({ url: watch('needcookie1') });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ success: true, auth_source: 'cookiefile', used_player_client: ['default'] });
      const [first, second] = probes();
      expect(first).toContain('--cookies-from-browser');
      expect(second!.slice(second!.indexOf('--cookies'), second!.indexOf('--cookies') + 2)).toEqual(['--cookies', cookies]);
      // the same auth for the video and the subtitles, and the user agent everywhere
      for (const call of calls().filter((a) => a.includes('--load-info-json'))) expect(call).toContain(cookies);
      expect(calls().every((a) => a.includes('User-Agent:KidsQuiz/1.0'))).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('cookiefile mode without the file: cookies_unavailable, yt-dlp never runs', async () => {
    const { t, admin } = await appWith({ DOWNLOAD_AUTH_MODE: 'cookiefile', DOWNLOAD_COOKIE_FILE: path.join(tmp, 'missing.txt') });
    try {
      const res = await admin.post('/api/download').type('form').send({ url: watch('needcookie1') });
      expect(res.body).toMatchObject({ success: false, error_code: 'cookies_unavailable', auth_source: 'cookiefile' });
      expect(calls()).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('a missing yt-dlp binary: 503 binary_missing naming the package', async () => {
    const { t, admin } = await appWith({ YTDLP_PATH: '/nonexistent/bin/yt-dlp' });
    try {
      const res = await admin.post('/api/download').type('form').send({ url: watch('clientretr1') });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, error_code: 'binary_missing' });
      expect(res.body.message).toMatch(/apt-get install yt-dlp/);
      expect(await t.db.all('SELECT key FROM video_locks')).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!cond()) throw new Error('condition not reached');
}
