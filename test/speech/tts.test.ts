import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginChild, loginExpert, createExpert, startTestApp, type Agent, type TestApp } from '../helpers/app.js';
import { FakeAudioServer } from './fake-audio-server.js';

const cacheFiles = (t: TestApp) => {
  const dir = path.join(t.dataDir, 'tts-cache');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).flatMap((sub) => fs.readdirSync(path.join(dir, sub)));
};

describe('POST /api/tts with local espeak-ng (no key)', () => {
  let t: TestApp;
  let child: Agent;

  beforeAll(async () => {
    t = await startTestApp();
    child = await loginChild(t.agent(), await createFamily(t));
  });
  afterAll(async () => t.close());

  it('refuses anonymous callers', async () => {
    const res = await t.agent().post('/api/tts').send({ text: 'Hello' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: 'not_logged_in' });
    expect(cacheFiles(t)).toEqual([]);
  });

  it('speaks with the contract defaults (sage, 0.75, mp3) and caches the audio', async () => {
    const res = await child.post('/api/tts').send({ text: 'What colour was the barn?' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, format: 'mp3', voice: 'sage', provider: 'espeak-ng', mime_type: 'audio/mpeg', cached: false });
    const audio = Buffer.from(res.body.audio, 'base64');
    expect(audio.length).toBeGreaterThan(1000);
    // an MP3 starts with an ID3 tag or an MPEG frame sync
    expect(audio.subarray(0, 3).toString() === 'ID3' || (audio[0] === 0xff && (audio[1]! & 0xe0) === 0xe0)).toBe(true);
    expect(cacheFiles(t)).toHaveLength(1);

    const again = await child.post('/api/tts').send({ text: 'What colour was the barn?' });
    expect(again.body).toMatchObject({ success: true, cached: true });
    expect(again.body.audio).toBe(res.body.audio);
    expect(cacheFiles(t)).toHaveLength(1);
  });

  it('gives each companion its own voice', async () => {
    const text = 'Great job!';
    const [bunny, pig, alligator] = await Promise.all(
      (['bunny', 'pig', 'alligator'] as const).map((companion) => child.post('/api/tts').send({ text, companion, format: 'wav' })),
    );
    expect(bunny!.body).toMatchObject({ success: true, voice: t.config.voices.bunny, format: 'wav' });
    expect(pig!.body.voice).toBe(t.config.voices.pig);
    expect(alligator!.body.voice).toBe(t.config.voices.alligator);
    const wavs = [bunny, pig, alligator].map((r) => Buffer.from(r!.body.audio, 'base64'));
    for (const w of wavs) expect(w.subarray(0, 4).toString()).toBe('RIFF');
    // the alligator speaks slower than the bunny: more samples for the same words
    expect(wavs[2]!.length).toBeGreaterThan(wavs[0]!.length);
    expect(new Set(wavs.map((w) => w.toString('base64'))).size).toBe(3);
  });

  it('converts to ogg/opus', async () => {
    const res = await child.post('/api/tts').send({ text: 'Bye bye', format: 'opus', speed: 1 });
    expect(res.body).toMatchObject({ success: true, format: 'opus', mime_type: 'audio/ogg' });
    expect(Buffer.from(res.body.audio, 'base64').subarray(0, 4).toString()).toBe('OggS');
  });

  it('is open to experts too', async () => {
    const expert = await createExpert(t);
    const res = await (await loginExpert(t.agent(), expert.code)).post('/api/tts').send({ text: 'Preview' });
    expect(res.status).toBe(200);
  });

  const bad: [string, unknown][] = [
    ['no text', {}],
    ['no body', undefined],
    ['empty text', { text: '   ' }],
    ['text not a string', { text: 42 }],
    ['only punctuation', { text: '?!...' }],
    ['text too long', { text: 'a'.repeat(1001) }],
    ['speed too low', { text: 'hi', speed: 0.1 }],
    ['speed too high', { text: 'hi', speed: 5 }],
    ['speed not a number', { text: 'hi', speed: 'fast' }],
    ['unknown format', { text: 'hi', format: 'flac' }],
    ['voice with odd characters', { text: 'hi', voice: '../etc' }],
    ['unknown companion', { text: 'hi', companion: 'cat' }],
  ];
  it.each(bad)('answers 400 for %s', async (_name, body) => {
    const before = cacheFiles(t).length;
    const res = await child.post('/api/tts').send(body as object);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'validation_error' });
    expect(typeof res.body.message).toBe('string');
    expect(cacheFiles(t).length).toBe(before);
  });
});

describe('POST /api/tts through the OpenAI SDK', () => {
  let fake: FakeAudioServer;
  let t: TestApp;
  let child: Agent;

  beforeAll(async () => {
    fake = await FakeAudioServer.start();
    t = await startTestApp({ TTS_API_KEY: 'sk-tts-test', TTS_BASE_URL: fake.url, TTS_MODEL: 'tts-test-model' });
    child = await loginChild(t.agent(), await createFamily(t));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('sends the defaults to the provider and returns its audio', async () => {
    fake.requests.length = 0;
    const res = await child.post('/api/tts').send({ text: 'How many eggs?' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, provider: 'openai', voice: 'sage', format: 'mp3', cached: false });
    expect(Buffer.from(res.body.audio, 'base64').equals(fake.speechBytes)).toBe(true);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.auth).toBe('Bearer sk-tts-test');
    expect(fake.requests[0]!.json).toMatchObject({ model: 'tts-test-model', input: 'How many eggs?', voice: 'sage', speed: 0.75, response_format: 'mp3' });
  });

  it("uses the companion's configured voice", async () => {
    fake.requests.length = 0;
    const res = await child.post('/api/tts').send({ text: 'Oink!', companion: 'pig', format: 'ogg', speed: 1.2 });
    expect(res.body).toMatchObject({ success: true, voice: t.config.voices.pig });
    expect(fake.requests[0]!.json).toMatchObject({ voice: t.config.voices.pig, response_format: 'opus', speed: 1.2 });
  });

  it('answers 502 when the provider fails, and caches nothing', async () => {
    fake.mode = 'fail';
    const before = cacheFiles(t).length;
    try {
      const res = await child.post('/api/tts').send({ text: 'This will fail' });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ success: false, error: 'tts_upstream_failed' });
      expect(res.body.message).not.toContain('sk-tts-test');
      expect(cacheFiles(t).length).toBe(before);
    } finally {
      fake.mode = 'ok';
    }
  });
});
