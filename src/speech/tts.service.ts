import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { AppError, badGateway, serviceUnavailable } from '../http/errors.js';
import { BinaryMissingError } from '../pipeline/process-runner.js';
import type { Runner } from './local/pronouncer.js';
import { TTS_MIME, type TtsBody, type TtsProviderName } from './speech.schema.js';
import { TtsCache } from './tts-cache.js';
import { EspeakTts, OpenAiTts, UpstreamSpeechError, type TtsProvider } from './tts-providers.js';

export interface TtsResult {
  success: true;
  audio: string;
  format: TtsBody['format'];
  voice: string;
  message: string;
  provider: TtsProviderName;
  mime_type: string;
  cached: boolean;
}

/** The speech key and address: TTS_* settings first, the general OpenAI ones as fallback. */
export function speechCredentials(config: Config): { apiKey?: string; baseURL?: string } {
  return { apiKey: config.TTS_API_KEY ?? config.OPENAI_API_KEY, baseURL: config.TTS_BASE_URL ?? config.OPENAI_BASE_URL };
}

/**
 * Where transcription goes: TRANSCRIBE_BASE_URL / TRANSCRIBE_API_KEY when set (a speech server on
 * the school's network, so children's voices stay on site), else the voice provider's settings as
 * above. A self-hosted server often needs no key; the SDK insists on one, so a placeholder is sent.
 */
export function transcribeCredentials(config: Config): { apiKey?: string; baseURL?: string; selfHosted: boolean } {
  const speech = speechCredentials(config);
  if (!config.TRANSCRIBE_BASE_URL) return { apiKey: config.TRANSCRIBE_API_KEY ?? speech.apiKey, baseURL: speech.baseURL, selfHosted: false };
  return { apiKey: config.TRANSCRIBE_API_KEY ?? 'no-key', baseURL: config.TRANSCRIBE_BASE_URL, selfHosted: true };
}

/**
 * Picks the text-to-speech provider from the settings: TTS_PROVIDER=openai (needs a key),
 * local (espeak-ng), or auto (OpenAI when a key is set, else espeak-ng).
 */
export function chooseTtsProvider(config: Config, run: Runner): TtsProvider | { unavailable: string } {
  const { apiKey, baseURL } = speechCredentials(config);
  const wantOpenAi = config.TTS_PROVIDER === 'openai' || (config.TTS_PROVIDER === 'auto' && apiKey);
  if (wantOpenAi) {
    if (!apiKey) return { unavailable: 'TTS_PROVIDER is openai but neither TTS_API_KEY nor OPENAI_API_KEY is set.' };
    return new OpenAiTts({ apiKey, baseURL, model: config.TTS_MODEL, timeoutMs: Math.min(config.AI_TIMEOUT_MS, 30_000), maxRetries: 1 });
  }
  return new EspeakTts(config.ESPEAK_PATH, config.FFMPEG_PATH, run);
}

export class TtsService {
  constructor(
    private readonly config: Config,
    private readonly provider: TtsProvider | { unavailable: string },
    private readonly cache: TtsCache,
    private readonly logger: Logger,
  ) {}

  get providerName(): TtsProviderName | null {
    return 'speak' in this.provider ? this.provider.name : null;
  }

  async synthesize(body: TtsBody, signal?: AbortSignal): Promise<TtsResult> {
    if (!('speak' in this.provider)) throw serviceUnavailable(this.provider.unavailable, 'tts_not_configured');
    const provider = this.provider;
    const voice = body.companion ? this.config.voices[body.companion] : body.voice;
    const key = TtsCache.key({ p: provider.cacheTag, voice, companion: body.companion ?? '', speed: body.speed, format: body.format, text: body.text });
    const reply = (audio: Buffer, cached: boolean): TtsResult => ({
      success: true,
      audio: audio.toString('base64'),
      format: body.format,
      voice,
      message: cached ? 'Speech ready (from cache).' : 'Speech ready.',
      provider: provider.name,
      mime_type: TTS_MIME[body.format],
      cached,
    });
    const hit = this.cache.get(key, body.format);
    if (hit) return reply(hit, true);
    let audio: Buffer;
    try {
      audio = await provider.speak({ text: body.text, voice, speed: body.speed, format: body.format, companion: body.companion }, signal);
    } catch (err) {
      throw this.toAppError(err, provider);
    }
    try {
      this.cache.put(key, body.format, audio);
    } catch (err) {
      // a full disk must not cost the child the question
      this.logger.warn({ err: (err as Error).message }, 'tts cache write failed');
    }
    return reply(audio, false);
  }

  private toAppError(err: unknown, provider: TtsProvider): AppError {
    if (err instanceof UpstreamSpeechError) {
      this.logger.warn({ provider: provider.name, err: err.message }, 'tts upstream failed');
      return badGateway('The speech provider failed. Please try again.', 'tts_upstream_failed');
    }
    if (err instanceof BinaryMissingError) {
      this.logger.error({ err: err.message }, 'tts binary missing');
      return serviceUnavailable(err.message, 'tts_unavailable');
    }
    this.logger.error({ err: (err as Error).message, provider: provider.name }, 'local tts failed');
    return badGateway('The local speech voice failed. Please try again.', 'tts_local_failed');
  }
}
