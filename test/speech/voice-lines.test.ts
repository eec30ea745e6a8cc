import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { fixedLines } from '../../src/speech/companion-lines.js';

/**
 * The companions' fixed lines as static audio: rendered by the real espeak-ng + ffmpeg into
 * DATA_DIR/voice-lines/, served without a session (the login page has none), and nothing but the
 * fixed lines can be asked for.
 */
describe('GET /kids/voice/{clip}.mp3', () => {
  let t: TestApp;
  let voice: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp({ TTS_PROVIDER: 'local' });
    const page = await t.agent().get('/kids');
    voice = JSON.parse(/id="kids-data">([^<]*)</.exec(page.text)![1]!).voice;
  });
  afterAll(() => t.close());

  it('lists a clip for every fixed line and none for lines with the answer in them', () => {
    const lines = fixedLines();
    expect(Object.keys(voice).sort()).toEqual(lines.map((l) => `${l.companion ?? '-'}|${l.text}`).sort());
    expect(lines.length).toBeGreaterThan(30);
    expect(lines.some((l) => l.text.includes('{a}'))).toBe(false);
  });

  it('renders a clip on first request, anonymously, and serves it from disk afterwards', async () => {
    const url = voice['-|Hello! Ask a grown-up to type the family code.']!;
    const a = t.agent();
    const first = await a.get(url).buffer(true);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('audio/mpeg');
    expect(first.headers['cache-control']).toContain('immutable');
    expect(first.body.length).toBeGreaterThan(1000);
    const file = path.join(t.dataDir, 'voice-lines', `${url.split('/').pop()}`);
    expect(fs.statSync(file).size).toBe(first.body.length);
    const again = await a.get(url).buffer(true);
    expect(Buffer.compare(again.body, first.body)).toBe(0);
  });

  it('knows nothing but the fixed lines', async () => {
    const a = t.agent();
    expect((await a.get(`/kids/voice/${'0'.repeat(64)}.mp3`)).status).toBe(404);
    expect((await a.get('/kids/voice/..%2F..%2Fapp.sqlite')).status).toBe(404);
    expect((await a.get('/kids/voice/abc.mp3')).status).toBe(404);
    expect(fs.readdirSync(path.join(t.dataDir, 'voice-lines')).every((f) => /^[a-f0-9]{64}\.mp3$/.test(f))).toBe(true);
  });

  it('renders them all in the background at start when VOICE_PRERENDER is on', async () => {
    const t2 = await startTestApp({ TTS_PROVIDER: 'local', VOICE_PRERENDER: 'true' });
    try {
      const dir = path.join(t2.dataDir, 'voice-lines');
      // the first few show it runs on its own (all of them take about a second each)
      await expect.poll(() => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.mp3')).length : 0), { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(3);
    } finally {
      await t2.close();
    }
  }, 90_000);
});
