import type OpenAI from 'openai';
import type { Companion } from '../config.js';
import type { Runner } from './local/pronouncer.js';
import type { TtsFormat } from './speech.schema.js';

/** What a provider is asked to say; `voice` is already the companion's voice when one was given. */
export interface SpeakRequest {
  text: string;
  voice: string;
  speed: number;
  format: TtsFormat;
  companion?: Companion;
}

export interface TtsProvider {
  readonly name: 'openai' | 'espeak-ng';
  /** what identifies this provider's output in the cache key (model, voice table version) */
  readonly cacheTag: string;
  speak(req: SpeakRequest, signal?: AbortSignal): Promise<Buffer>;
}

/** Thrown when the remote provider fails: the route answers 502. */
export class UpstreamSpeechError extends Error {}

export interface OpenAiSpeechOptions {
  apiKey: string;
  baseURL?: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
}

/** OpenAI text-to-speech through the official SDK (any compatible server via the base URL). */
export class OpenAiTts implements TtsProvider {
  readonly name = 'openai' as const;
  readonly cacheTag: string;
  /** the SDK is imported on first use, not at start (it is slow to load) */
  private client?: Promise<OpenAI>;

  constructor(private readonly o: OpenAiSpeechOptions) {
    this.cacheTag = `openai:${o.model}:${o.baseURL ?? 'default'}`;
  }

  async speak(req: SpeakRequest, signal?: AbortSignal): Promise<Buffer> {
    try {
      const o = this.o;
      this.client ??= import('openai').then((sdk) => new sdk.default({ apiKey: o.apiKey, baseURL: o.baseURL, timeout: o.timeoutMs, maxRetries: o.maxRetries }));
      const res = await (await this.client).audio.speech.create(
        {
          model: this.o.model,
          input: req.text,
          voice: req.voice,
          speed: req.speed,
          // OpenAI's "opus" is Ogg Opus, which is what "ogg" means here too
          response_format: req.format === 'ogg' ? 'opus' : req.format,
        },
        { signal },
      );
      const audio = Buffer.from(await res.arrayBuffer());
      if (audio.length === 0) throw new UpstreamSpeechError('The speech provider returned no audio.');
      return audio;
    } catch (err) {
      if (err instanceof UpstreamSpeechError) throw err;
      const status = (err as { status?: number }).status;
      throw new UpstreamSpeechError(`The speech provider failed${status ? ` (HTTP ${status})` : ''}: ${(err as Error).message}`);
    }
  }
}

/** A local espeak-ng voice: variant, pitch (0-99) and a rate factor on top of the asked speed. */
export interface EspeakVoice {
  voice: string;
  pitch: number;
  rate: number;
}

/**
 * One distinct local voice per companion so a child can tell them apart without a key: the
 * bunny high and quick, the pig round and middle, the alligator low and slow.
 */
export const ESPEAK_VOICES: Record<Companion | 'default', EspeakVoice> = {
  bunny: { voice: 'en-us+f3', pitch: 75, rate: 1.05 },
  pig: { voice: 'en-us+m3', pitch: 55, rate: 1.0 },
  alligator: { voice: 'en-us+m1', pitch: 25, rate: 0.9 },
  default: { voice: 'en-us+f2', pitch: 55, rate: 1.0 },
};

/** espeak-ng's normal rate is 175 words per minute; speed 0.75 (the default) gives ~130. */
export function espeakArgs(v: EspeakVoice, speed: number): string[] {
  const wpm = Math.round(Math.min(450, Math.max(80, 175 * speed * v.rate)));
  // the text arrives on stdin, so nothing it contains can be read as an option
  return ['-v', v.voice, '-p', String(v.pitch), '-s', String(wpm), '--stdout'];
}

/** ffmpeg: espeak-ng's WAV on stdin -> the asked format on stdout. */
export function encodeArgs(format: TtsFormat): string[] {
  const codec: Record<TtsFormat, string[]> = {
    mp3: ['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3'],
    wav: ['-c:a', 'pcm_s16le', '-f', 'wav'],
    opus: ['-c:a', 'libopus', '-b:a', '32k', '-f', 'ogg'],
    ogg: ['-c:a', 'libopus', '-b:a', '32k', '-f', 'ogg'],
  };
  return ['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'wav', '-i', 'pipe:0', '-ac', '1', '-ar', '24000', ...codec[format], 'pipe:1'];
}

export class EspeakTts implements TtsProvider {
  readonly name = 'espeak-ng' as const;
  readonly cacheTag = 'espeak-ng:v1';

  constructor(
    private readonly espeakPath: string,
    private readonly ffmpegPath: string,
    private readonly run: Runner,
  ) {}

  async speak(req: SpeakRequest, signal?: AbortSignal): Promise<Buffer> {
    const voice = ESPEAK_VOICES[req.companion ?? 'default'];
    const wav = await this.run(this.espeakPath, espeakArgs(voice, req.speed), { input: req.text, timeoutMs: 30_000, signal });
    if (wav.stdout.length <= 44) throw new Error('espeak-ng produced no audio.');
    const out = await this.run(this.ffmpegPath, encodeArgs(req.format), { input: wav.stdout, timeoutMs: 30_000, signal });
    return out.stdout;
  }
}
