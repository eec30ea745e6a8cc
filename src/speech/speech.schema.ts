import { z } from 'zod';
import { COMPANIONS } from '../config.js';
import { videoIdSchema } from '../http/ids.js';

/** Longest text /api/tts speaks: a question with its companion wording fits many times over. */
export const MAX_TTS_CHARS = 1000;
export const TTS_FORMATS = ['mp3', 'wav', 'opus', 'ogg'] as const;
export type TtsFormat = (typeof TTS_FORMATS)[number];
export const TTS_PROVIDERS = ['openai', 'espeak-ng'] as const;
export type TtsProviderName = (typeof TTS_PROVIDERS)[number];

export const TTS_MIME: Record<TtsFormat, string> = { mp3: 'audio/mpeg', wav: 'audio/wav', opus: 'audio/ogg', ogg: 'audio/ogg' };

export const ttsBodySchema = z.object({
  text: z
    .string({ error: 'is required (the words to speak)' })
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_TTS_CHARS, `must be at most ${MAX_TTS_CHARS} characters`)
    .refine((t) => /[\p{L}\p{N}]/u.test(t), 'must contain letters or digits'),
  voice: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be a voice name (letters, digits, "-" or "_")')
    .default('sage'),
  speed: z.number({ error: 'must be a number' }).min(0.25, 'must be at least 0.25').max(4, 'must be at most 4').default(0.75),
  format: z.enum(TTS_FORMATS, { error: `must be one of ${TTS_FORMATS.join(', ')}` }).default('mp3'),
  /** speak with this companion's voice (settings VOICE_BUNNY, ... or its local espeak-ng voice) */
  companion: z.enum(COMPANIONS, { error: `must be one of ${COMPANIONS.join(', ')}` }).optional(),
});
export type TtsBody = z.output<typeof ttsBodySchema>;

export const ttsResponseSchema = z.object({
  success: z.boolean(),
  audio: z.string().describe('base64-encoded audio bytes'),
  format: z.enum(TTS_FORMATS),
  voice: z.string(),
  message: z.string(),
  provider: z.enum(TTS_PROVIDERS),
  mime_type: z.string(),
  cached: z.boolean(),
});

/** Optional context of a recording: which question of which video the child is answering. */
export const transcribeBodySchema = z
  .object({
    video_id: videoIdSchema.optional(),
    segment_start: z
      .string()
      .regex(/^\d{1,6}$/, 'must be a whole number of seconds')
      .transform(Number)
      .optional(),
  })
  .default({});

export const TRANSCRIBE_PROVIDERS = ['openai', 'local', 'none'] as const;
export type TranscribeProviderName = (typeof TRANSCRIBE_PROVIDERS)[number];

export const transcribeResponseSchema = z.object({
  success: z.boolean(),
  text: z.string(),
  error: z.string().optional().describe('why nothing could be transcribed (success false)'),
  error_code: z.string().optional(),
  provider: z.enum(TRANSCRIBE_PROVIDERS),
  no_speech: z.boolean().optional().describe('the local recognizer heard only silence or steady noise'),
});
export type TranscribeResponse = z.output<typeof transcribeResponseSchema>;
