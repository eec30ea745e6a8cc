import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../../src/pipeline/process-runner.js';
import { createFamily, loginChild, startTestApp, type Agent, type TestApp } from '../helpers/app.js';
import { FakeAudioServer } from './fake-audio-server.js';
import { principalKey } from '../../src/http/session.js';
import { TranscribeService } from '../../src/speech/transcribe.service.js';
import { LocalRecognizer } from '../../src/speech/local/recognizer.js';
import { createLogger } from '../../src/logger.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'speech-test-audio-'));

/** espeak-ng says `text` into a WAV (a synthetic child), with room noise and pauses as a microphone would. */
async function speak(text: string, name: string): Promise<string> {
  const raw = path.join(scratch, `${name}.raw.wav`);
  const out = path.join(scratch, `${name}.wav`);
  await runProcess('espeak-ng', ['-v', 'en-us', '-s', '140', '-w', raw, text]);
  await runProcess('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', raw, '-f', 'lavfi', '-i', 'anoisesrc=r=22050:a=0.002:c=pink:seed=20261126',
    '-filter_complex', '[0]adelay=400,apad=pad_dur=0.5[s];[s][1]amix=inputs=2:duration=first:normalize=0', '-ar', '16000', '-ac', '1', out]);
  return out;
}

async function lavfi(source: string, name: string, ext = 'wav'): Promise<string> {
  const out = path.join(scratch, `${name}.${ext}`);
  await runProcess('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-t', '2', '-ac', '1', out]);
  return out;
}

/** Nothing of a recording may stay on disk after the request. */
function leftovers(t: TestApp): string[] {
  const tmp = path.join(t.dataDir, 'tmp');
  if (!fs.existsSync(tmp)) return [];
  return fs.readdirSync(tmp, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
}

/** A playable video with one finalized question, visible to every family (is_sample). */
async function seedVideo(t: TestApp, id: string, question: string, answer: string): Promise<void> {
  await t.db.run("INSERT INTO videos (id, title, state, is_sample) VALUES (?, 'Farm', 'downloaded', 1)", [id]);
  await t.db.run('INSERT INTO review_segments (video_id, start_seconds, end_seconds, finalized) VALUES (?, 0, 20, 1)', [id]);
  await t.db.run(
    `INSERT INTO review_questions (video_id, start_seconds, end_seconds, question_type, question, answer, origin)
     VALUES (?, 0, 20, 'setting', ?, ?, 'expert')`,
    [id, question, answer],
  );
}

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('POST /api/transcribe with the local recognizer (no key)', () => {
  let t: TestApp;
  let child: Agent;

  beforeAll(async () => {
    t = await startTestApp({ TRANSCRIBE_MAX_BYTES: '300000' });
    child = await loginChild(t.agent(), await createFamily(t));
    await seedVideo(t, 'farmvideo01', 'What color was the barn?', 'blue');
  });
  afterAll(async () => t.close());

  it('refuses anonymous callers before reading the upload', async () => {
    const res = await t.agent().post('/api/transcribe').attach('file', Buffer.alloc(2000), { filename: 'a.wav', contentType: 'audio/wav' });
    expect(res.status).toBe(401);
    expect(leftovers(t)).toEqual([]);
  });

  it('answers 400 without a file', async () => {
    const res = await child.post('/api/transcribe').field('video_id', 'farmvideo01');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'no_file' });
  });

  it('answers 415 for a file that is not audio, and keeps nothing', async () => {
    const res = await child.post('/api/transcribe').attach('file', Buffer.from('hello'), { filename: 'notes.txt', contentType: 'text/plain' });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ success: false, error: 'unsupported_audio_type' });
    expect(leftovers(t)).toEqual([]);
  });

  it('answers 413 for a file over TRANSCRIBE_MAX_BYTES, and keeps nothing', async () => {
    const res = await child.post('/api/transcribe').attach('file', Buffer.alloc(400_000, 1), { filename: 'big.wav', contentType: 'audio/wav' });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, error: 'file_too_large' });
    expect(leftovers(t)).toEqual([]);
  });

  it('answers 400 for a malformed video_id or segment_start, and keeps nothing', async () => {
    const wav = await lavfi('anullsrc=r=16000:cl=mono', 'silence-a');
    for (const [field, value] of [['video_id', '../etc'], ['segment_start', 'soon']]) {
      const res = await child.post('/api/transcribe').field(field!, value!).attach('file', wav);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'validation_error' });
    }
    expect(leftovers(t)).toEqual([]);
  });

  it('hears nothing in silence and in steady noise', async () => {
    for (const src of ['anullsrc=r=16000:cl=mono', 'anoisesrc=r=16000:a=0.05:c=white:seed=20261126', 'sine=f=50:r=16000']) {
      const res = await child.post('/api/transcribe').field('video_id', 'farmvideo01').field('segment_start', '0').attach('file', await lavfi(src, 'noise'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, text: '', provider: 'local', no_speech: true });
    }
    expect(leftovers(t)).toEqual([]);
  });

  it('transcribes a spoken answer with the video question as context, and deletes the recording', async () => {
    const res = await child
      .post('/api/transcribe')
      .field('video_id', 'farmvideo01')
      .field('segment_start', '0')
      .attach('file', await speak('it was blue', 'blue'));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.provider).toBe('local');
    expect(res.body.text.split(' ')).toContain('blue');
    expect(leftovers(t)).toEqual([]);
  });

  it('does not force a different answer onto the expected one', async () => {
    const res = await child
      .post('/api/transcribe')
      .field('video_id', 'farmvideo01')
      .field('segment_start', '0')
      .attach('file', await speak('three', 'three'));
    expect(res.body.success).toBe(true);
    expect(res.body.text.split(' ')).toContain('three');
    expect(res.body.text.split(' ')).not.toContain('blue');
  });

  it('gives the recognizer the question, the words around its answer and the video\'s other questions', async () => {
    const c = t.config;
    const recognizer = new LocalRecognizer({ ffmpegPath: c.FFMPEG_PATH, espeakPath: c.ESPEAK_PATH, pocketsphinxPath: c.POCKETSPHINX_PATH, modelDir: c.POCKETSPHINX_MODEL_DIR, workRoot: scratch, run: runProcess });
    const service = new TranscribeService(c, t.db, recognizer, createLogger('silent'));
    const asked = await service.contextFor({ role: 'admin' }, 'farmvideo01', 3);
    expect(asked.focus).toEqual(['What color was the barn?', 'blue']);
    expect(asked.neighbours?.broader).toContain('color');
    expect(asked.neighbours?.kin).toEqual(expect.arrayContaining(['red', 'green']));
    // another moment of the video: its questions only raise their words a little, no neighbours
    const elsewhere = await service.contextFor({ role: 'admin' }, 'farmvideo01', 300);
    expect(elsewhere).toEqual({ focus: [], related: ['What color was the barn?', 'blue'] });
    expect(await service.contextFor({ role: 'admin' }, 'no-such-video', 3)).toEqual({ focus: [], related: [] });
  });

  it('says so when the upload is not readable audio', async () => {
    const res = await child.post('/api/transcribe').attach('file', Buffer.alloc(5000, 3), { filename: 'answer.webm', contentType: 'audio/webm' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, text: '', error_code: 'unreadable_audio', provider: 'local' });
    expect(res.body.error).toMatch(/could not be read/);
    expect(leftovers(t)).toEqual([]);
  });
});

describe('principalKey: whose vocal tract warp the recognizer learns', () => {
  it('is the child profile on a tablet, the family before a profile is picked, the staff member otherwise', () => {
    expect(principalKey({ role: 'child', expertId: 'e1', parentId: 'p1', childId: 'c1' })).toBe('child:c1');
    expect(principalKey({ role: 'child', expertId: 'e1', parentId: 'p1' })).toBe('family:p1');
    expect(principalKey({ role: 'expert', expertId: 'e1' })).toBe('expert:e1');
    expect(principalKey({ role: 'admin' })).toBe('admin');
    expect(principalKey({ role: 'anonymous' })).toBeUndefined();
  });
});

describe('POST /api/transcribe when no recognizer can run', () => {
  it('gives success false with a clear error when pocketsphinx is missing', async () => {
    const t = await startTestApp({ POCKETSPHINX_PATH: '/nonexistent/pocketsphinx_continuous' });
    try {
      const child = await loginChild(t.agent(), await createFamily(t));
      const res = await child.post('/api/transcribe').attach('file', await speak('hello there', 'hello'));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, text: '', error_code: 'recognizer_missing', provider: 'local' });
      expect(res.body.error).toContain('apt-get install pocketsphinx');
      expect(leftovers(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('gives success false when transcription is turned off', async () => {
    const t = await startTestApp({ TRANSCRIBE_PROVIDER: 'none' });
    try {
      const child = await loginChild(t.agent(), await createFamily(t));
      const res = await child.post('/api/transcribe').attach('file', await lavfi('anullsrc=r=16000:cl=mono', 'silence-b'));
      expect(res.body).toMatchObject({ success: false, error_code: 'transcription_off', provider: 'none' });
      expect(leftovers(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('POST /api/transcribe through the OpenAI SDK', () => {
  let fake: FakeAudioServer;
  let t: TestApp;
  let child: Agent;

  beforeAll(async () => {
    fake = await FakeAudioServer.start();
    t = await startTestApp({ OPENAI_API_KEY: 'sk-stt-test', OPENAI_BASE_URL: fake.url, TRANSCRIBE_MODEL: 'stt-test-model' });
    child = await loginChild(t.agent(), await createFamily(t));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('sends the recording to the provider and returns its text', async () => {
    const wav = await lavfi('sine=f=440:r=16000', 'tone');
    fake.transcript = '  it was red ';
    const res = await child.post('/api/transcribe').attach('file', wav, { filename: 'answer.wav', contentType: 'audio/wav' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, text: 'it was red', provider: 'openai' });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1/audio/transcriptions');
    expect(sent.auth).toBe('Bearer sk-stt-test');
    expect(sent.raw!.toString('latin1')).toContain('stt-test-model');
    expect(sent.raw!.length).toBeGreaterThan(fs.statSync(wav).size);
    expect(leftovers(t)).toEqual([]);
  });

  it('uses the local recognizer when TRANSCRIBE_PROVIDER=local, even with a key', async () => {
    const local = await startTestApp({ OPENAI_API_KEY: 'sk-stt-test', OPENAI_BASE_URL: fake.url, TRANSCRIBE_PROVIDER: 'local' });
    try {
      const before = fake.requests.length;
      const agent = await loginChild(local.agent(), await createFamily(local));
      const res = await agent.post('/api/transcribe').attach('file', await lavfi('anullsrc=r=16000:cl=mono', 'silence-c'));
      expect(res.body).toMatchObject({ success: true, provider: 'local', no_speech: true });
      expect(fake.requests.length).toBe(before);
    } finally {
      await local.close();
    }
  });

  it('gives success false when the provider fails, and deletes the recording', async () => {
    fake.mode = 'fail';
    try {
      const res = await child.post('/api/transcribe').attach('file', await lavfi('sine=f=440:r=16000', 'tone2'));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, text: '', error_code: 'transcription_upstream_failed', provider: 'openai' });
      expect(leftovers(t)).toEqual([]);
    } finally {
      fake.mode = 'ok';
    }
  });
});
