import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginChild, startTestApp } from '../helpers/app.js';
import { FakeAudioServer } from './fake-audio-server.js';
import { loadConfig } from '../../src/config.js';
import { transcribeCredentials } from '../../src/speech/tts.service.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * TRANSCRIBE_BASE_URL / TRANSCRIBE_API_KEY send transcription alone to a self-hosted
 * OpenAI-compatible speech server (here a second fake on 127.0.0.1), while voices keep using the
 * OpenAI settings; the real `openai` SDK makes every call.
 */
describe('transcription on a self-hosted speech server', () => {
  let cloud: FakeAudioServer;
  let onSite: FakeAudioServer;
  const wav = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(3000, 1)]);
  beforeAll(async () => {
    cloud = await FakeAudioServer.start();
    onSite = await FakeAudioServer.start();
    cloud.transcript = 'from the cloud';
    onSite.transcript = 'it was blue';
  });
  afterAll(async () => {
    await cloud.close();
    await onSite.close();
  });

  it('sends answers to TRANSCRIBE_BASE_URL with TRANSCRIBE_API_KEY, and voices to the OpenAI settings', async () => {
    const t = await startTestApp({ OPENAI_API_KEY: 'cloud-key', OPENAI_BASE_URL: cloud.url, TRANSCRIBE_BASE_URL: onSite.url, TRANSCRIBE_API_KEY: 'school-key' });
    try {
      const child = await loginChild(t.agent(), await createFamily(t));
      const res = await child.post('/api/transcribe').attach('file', wav, { filename: 'answer.wav', contentType: 'audio/wav' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, text: 'it was blue', provider: 'openai' });
      expect(onSite.requests.map((r) => [r.path, r.auth])).toEqual([['/v1/audio/transcriptions', 'Bearer school-key']]);
      expect(onSite.requests[0]!.raw!.includes(wav)).toBe(true);

      const tts = await child.post('/api/tts').send({ text: 'What colour was the barn?' });
      expect(tts.status).toBe(200);
      expect(cloud.requests.map((r) => [r.path, r.auth])).toEqual([['/v1/audio/speech', 'Bearer cloud-key']]);
      expect(onSite.requests).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('uses a keyless self-hosted server on its own (auto), with no OpenAI key anywhere', async () => {
    onSite.requests.length = 0;
    const t = await startTestApp({ TRANSCRIBE_BASE_URL: onSite.url });
    try {
      const child = await loginChild(t.agent(), await createFamily(t));
      const res = await child.post('/api/transcribe').attach('file', wav, { filename: 'answer.wav', contentType: 'audio/wav' });
      expect(res.body).toEqual({ success: true, text: 'it was blue', provider: 'openai' });
      expect(onSite.requests).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('falls back to the voice and OpenAI settings when the transcription ones are unset', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-cfg-'));
    try {
      const cfg = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, ...env });
      expect(transcribeCredentials(cfg({}))).toEqual({ apiKey: undefined, baseURL: undefined, selfHosted: false });
      expect(transcribeCredentials(cfg({ OPENAI_API_KEY: 'o', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }))).toEqual({ apiKey: 'o', baseURL: 'http://127.0.0.1:9/v1', selfHosted: false });
      expect(transcribeCredentials(cfg({ OPENAI_API_KEY: 'o', TTS_API_KEY: 't', TTS_BASE_URL: 'http://127.0.0.1:8/v1' }))).toEqual({ apiKey: 't', baseURL: 'http://127.0.0.1:8/v1', selfHosted: false });
      expect(transcribeCredentials(cfg({ OPENAI_API_KEY: 'o', TRANSCRIBE_API_KEY: 'k' }))).toEqual({ apiKey: 'k', baseURL: undefined, selfHosted: false });
      expect(transcribeCredentials(cfg({ OPENAI_API_KEY: 'o', TRANSCRIBE_BASE_URL: 'http://127.0.0.1:7/v1' }))).toEqual({ apiKey: 'no-key', baseURL: 'http://127.0.0.1:7/v1', selfHosted: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
