import fs from 'node:fs';
import path from 'node:path';
import type OpenAI from 'openai';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { Auth } from '../http/session.js';
import { canSeeVideo } from '../videos/access.js';
import { finalQuestions } from '../questions/final.service.js';
import { BinaryMissingError, ProcessError } from '../pipeline/process-runner.js';
import { LocalRecognizer } from './local/recognizer.js';
import { Limiter, LimiterFullError } from '../pipeline/limiter.js';
import { EMPTY_CONTEXT, type AnswerContext } from './local/vocabulary.js';
import { answerNeighbours } from '../quiz/grading/neighbours.js';
import type { Runner } from './local/pronouncer.js';
import { transcribeCredentials } from './tts.service.js';
import type { TranscribeProviderName, TranscribeResponse } from './speech.schema.js';

export interface Upload {
  path: string;
  originalName: string;
  mimeType: string;
}

/**
 * Speech to text for the child's answer: OpenAI transcription through the SDK, or the local
 * pocketsphinx recognizer, or none, per TRANSCRIBE_PROVIDER (auto = OpenAI with a key, else
 * local). Every failure to hear becomes `success: false` with an `error` a person can read;
 * it never throws for a bad recording.
 */
export class TranscribeService {
  /** the OpenAI SDK is imported on the first transcription, not at start (it is slow to load) */
  private readonly openai?: () => Promise<{ client: OpenAI; toFile: typeof import('openai').toFile }>;
  /** local recognitions start ffmpeg + one pocketsphinx run each (three, the chosen warp and its neighbours, while a speaker's warp is learned): bounded across all requests */
  private readonly localJobs: Limiter;
  readonly provider: TranscribeProviderName;

  constructor(
    private readonly config: Config,
    private readonly db: Database,
    readonly local: LocalRecognizer,
    private readonly logger: Logger,
  ) {
    const { apiKey, baseURL } = transcribeCredentials(config);
    const p = config.TRANSCRIBE_PROVIDER;
    this.provider = p === 'auto' ? (apiKey ? 'openai' : 'local') : p;
    this.localJobs = new Limiter(config.LOCAL_TRANSCRIBE_CONCURRENCY, 4 * config.LOCAL_TRANSCRIBE_CONCURRENCY);
    if (this.provider === 'openai' && apiKey) {
      const timeout = Math.min(config.AI_TIMEOUT_MS, 30_000);
      let loaded: Promise<{ client: OpenAI; toFile: typeof import('openai').toFile }> | undefined;
      this.openai = () => {
        loaded ??= import('openai').then((sdk) => ({ client: new sdk.default({ apiKey, baseURL, timeout, maxRetries: 1 }), toFile: sdk.toFile }));
        return loaded;
      };
    }
  }

  async transcribe(upload: Upload, context: AnswerContext, signal?: AbortSignal, speaker?: string): Promise<TranscribeResponse> {
    const fail = (error_code: string, error: string): TranscribeResponse => ({ success: false, text: '', error, error_code, provider: this.provider });
    if (this.provider === 'none') return fail('transcription_off', 'Speech recognition is turned off on this server (TRANSCRIBE_PROVIDER=none).');
    if (this.provider === 'openai') {
      if (!this.openai) {
        return fail('transcription_not_configured', 'TRANSCRIBE_PROVIDER is openai but none of TRANSCRIBE_BASE_URL, TRANSCRIBE_API_KEY, TTS_API_KEY or OPENAI_API_KEY is set.');
      }
      try {
        const { client, toFile } = await this.openai();
        const file = await toFile(fs.createReadStream(upload.path), safeName(upload), { type: upload.mimeType });
        const res = await client.audio.transcriptions.create({ file, model: this.config.TRANSCRIBE_MODEL, language: 'en', response_format: 'json' }, { signal });
        return { success: true, text: (res.text ?? '').trim(), provider: 'openai' };
      } catch (err) {
        const status = (err as { status?: number }).status;
        this.logger.warn({ status, err: (err as Error).message }, 'transcription upstream failed');
        return fail('transcription_upstream_failed', `The transcription service failed${status ? ` (HTTP ${status})` : ''}. Please try again.`);
      }
    }
    const missing = await this.local.unavailableReason();
    if (missing) return fail('recognizer_missing', missing);
    try {
      const r = await this.localJobs.run(() => this.local.transcribe(upload.path, context, { signal, speaker }), signal);
      this.logger.debug(
        { noSpeech: r.noSpeech, levels: r.levels, vocabulary: r.vocabularySize, decodeMs: r.decodeMs, warp: r.warp, decodes: r.decodes },
        'local transcription',
      );
      return { success: true, text: r.text, provider: 'local', ...(r.noSpeech ? { no_speech: true } : {}) };
    } catch (err) {
      if (err instanceof BinaryMissingError) return fail('recognizer_missing', err.message);
      if (err instanceof LimiterFullError) return fail('recognizer_busy', 'Many answers are being listened to right now. Please try again in a moment.');
      if (err instanceof ProcessError && err.command.endsWith('ffmpeg')) {
        return fail('unreadable_audio', 'The recording could not be read as audio. Please record the answer again.');
      }
      this.logger.error({ err: (err as Error).message }, 'local transcription failed');
      return fail('recognizer_failed', 'The speech recognizer failed on this recording. Please try again.');
    }
  }

  /**
   * The words the recognizer should expect: the question at `segmentStart` of the video (focus),
   * the words around its expected answer in the grader's meaning tables (neighbours) and the
   * video's other final questions (related). A video the caller cannot see, or without
   * final questions, gives no context; it never fails the request.
   */
  async contextFor(auth: Auth, videoId: string | undefined, segmentStart: number | undefined): Promise<AnswerContext> {
    if (!videoId || !(await canSeeVideo(this.db, auth, videoId))) return EMPTY_CONTEXT;
    const segments = await finalQuestions(this.db, videoId, null);
    const focus: string[] = [];
    const related: string[] = [];
    const answers: string[] = [];
    for (const s of segments) {
      const texts = [s.question, s.answer];
      if (segmentStart !== undefined && s.segment_range_start <= segmentStart && segmentStart < Math.max(s.segment_range_end, s.segment_range_start + 1)) {
        focus.push(...texts);
        answers.push(s.answer);
      } else {
        related.push(...texts);
      }
    }
    return { focus, related, ...(answers.length > 0 ? { neighbours: answerNeighbours(answers.join(', ')) } : {}) };
  }
}

/** The SDK wants a file name whose extension names the format; never the client's own name. */
function safeName(upload: Upload): string {
  const ext = path.extname(upload.originalName).toLowerCase().replace(/[^.a-z0-9]/g, '');
  return `answer${ext && ext.length <= 6 ? ext : '.webm'}`;
}
