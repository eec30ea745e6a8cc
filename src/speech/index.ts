import fs from 'node:fs';
import path from 'node:path';
import type { Response } from 'express';
import type { AppContext } from '../context.js';
import { runProcess } from '../pipeline/process-runner.js';
import { LocalRecognizer } from './local/recognizer.js';
import { ttsBodySchema, ttsResponseSchema, transcribeBodySchema, transcribeResponseSchema } from './speech.schema.js';
import { TtsCache } from './tts-cache.js';
import { TtsService, chooseTtsProvider } from './tts.service.js';
import { TranscribeService } from './transcribe.service.js';
import { principalKey } from '../http/session.js';
import { audioUpload } from './upload.js';
import { VoiceLines, registerVoiceLines } from './voice-lines.js';

/**
 * Speech out (POST /api/tts) and speech in (POST /api/transcribe). Both are open to every
 * logged-in session: children need them, and so do experts previewing the player.
 */
export function registerSpeech(ctx: AppContext): void {
  const { config, db, api } = ctx;
  const logger = ctx.logger.child({ module: 'speech' });
  const uploadDir = path.join(config.dataDir, 'tmp', 'transcribe');
  const workDir = path.join(config.dataDir, 'tmp', 'asr');

  const cache = new TtsCache(path.join(config.dataDir, 'tts-cache'));
  const tts = new TtsService(config, chooseTtsProvider(config, runProcess), cache, logger);
  const recognizer = new LocalRecognizer({
    ffmpegPath: config.FFMPEG_PATH,
    espeakPath: config.ESPEAK_PATH,
    pocketsphinxPath: config.POCKETSPHINX_PATH,
    modelDir: config.POCKETSPHINX_MODEL_DIR,
    workRoot: workDir,
    run: runProcess,
    logger,
  });
  const transcriber = new TranscribeService(config, db, recognizer, logger);
  const soundTag = JSON.stringify([tts.providerName, config.TTS_MODEL, config.voices]);
  registerVoiceLines(ctx, new VoiceLines(tts, path.join(config.dataDir, 'voice-lines'), soundTag, logger));

  ctx.onStart(() => {
    // recordings and work files left by a crash are removed; nothing of a child's voice survives a restart
    for (const dir of [uploadDir, workDir]) fs.rmSync(dir, { recursive: true, force: true });
    cache.prune();
    logger.info({ tts: tts.providerName ?? 'not configured', transcription: transcriber.provider }, 'speech providers');
  });

  api.route(
    {
      method: 'post',
      path: '/api/tts',
      summary: 'Speak a text (a question, a companion reaction) and return the audio as base64',
      tags: ['Media'],
      access: 'authenticated',
      body: ttsBodySchema,
      response: ttsResponseSchema,
      errors: {
        400: 'text missing, empty, too long, or another field invalid',
        502: 'the speech provider failed',
        503: 'no speech provider can run here (missing key or binary)',
      },
    },
    async ({ body }, _req, res) => {
      const abort = abortOnClose(res, ctx.shutdownSignal);
      return tts.synthesize(body, abort.signal);
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/transcribe',
      summary: "Transcribe a child's recorded answer (the recording is deleted right after)",
      tags: ['Kids'],
      access: 'authenticated',
      bodyType: 'multipart',
      body: transcribeBodySchema,
      response: transcribeResponseSchema,
      errors: {
        400: 'no file, or an invalid video_id / segment_start',
        413: `the file is larger than TRANSCRIBE_MAX_BYTES (${config.TRANSCRIBE_MAX_BYTES} bytes)`,
        415: 'the file is not audio',
      },
      middleware: audioUpload(uploadDir, config.TRANSCRIBE_MAX_BYTES, transcribeBodySchema),
    },
    async ({ body, auth }, req, res) => {
      const file = req.file!;
      const context = await transcriber.contextFor(auth, body.video_id, body.segment_start);
      const abort = abortOnClose(res, ctx.shutdownSignal);
      try {
        return await transcriber.transcribe({ path: file.path, originalName: file.originalname, mimeType: file.mimetype }, context, abort.signal, principalKey(auth));
      } finally {
        // deleted right after transcription; the response-end hook in audioUpload is the backstop
        await fs.promises.rm(file.path, { force: true });
      }
    },
  );
}

/**
 * Stops provider calls and child processes when the client goes away before the answer, or
 * when the server shuts down (after its drain time: recognitions must not outlive SQLite).
 */
function abortOnClose(res: Response, shutdown: AbortSignal): AbortController {
  const abort = new AbortController();
  const onShutdown = () => abort.abort();
  res.on('close', () => {
    shutdown.removeEventListener('abort', onShutdown);
    if (!res.writableFinished) abort.abort();
  });
  if (shutdown.aborted) abort.abort();
  else shutdown.addEventListener('abort', onShutdown, { once: true });
  return abort;
}
