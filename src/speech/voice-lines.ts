import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.js';
import type { Logger } from '../logger.js';
import { notFound, serviceUnavailable } from '../http/errors.js';
import { writeAtomic } from '../pipeline/files.js';
import { fixedLines, type FixedLine } from './companion-lines.js';
import { ttsBodySchema } from './speech.schema.js';
import type { TtsService } from './tts.service.js';

/**
 * The companions' fixed lines (page instructions, greetings, praise, "did not hear you") as
 * static audio files, spoken once by the configured voice (OpenAI with a key, espeak-ng without)
 * and kept in DATA_DIR/voice-lines/. They are rendered in the background at start
 * (VOICE_PRERENDER) and, for any not rendered yet, on the first request. The login page has no
 * session, so it could not call POST /api/tts; it plays these files instead.
 *
 * A file's name is a hash of the line and of every setting that shapes its sound (provider,
 * model, voices): changing a voice gives new names, so a browser never plays a stale cached clip.
 */
export class VoiceLines {
  private readonly byId = new Map<string, FixedLine>();
  private readonly urls: Record<string, string> = {};
  private readonly inFlight = new Map<string, Promise<string>>();
  private stopped = false;

  constructor(
    private readonly tts: TtsService,
    readonly dir: string,
    soundTag: string,
    private readonly logger: Logger,
  ) {
    if (tts.providerName === null) return; // nothing can speak: the pages use the browser's voice
    for (const line of fixedLines()) {
      const id = crypto.createHash('sha256').update(JSON.stringify([soundTag, line.companion, line.text])).digest('hex');
      this.byId.set(id, line);
      this.urls[lineKey(line)] = `/kids/voice/${id}.mp3`;
    }
  }

  /** "companion|text" (or "-|text" for the default voice) -> the clip's URL, for the pages. */
  manifest(): Record<string, string> {
    return this.urls;
  }

  get count(): number {
    return this.byId.size;
  }

  /** The clip's file, rendered now if it is not on disk yet (concurrent requests share one rendering). */
  async file(id: string): Promise<string> {
    const line = this.byId.get(id);
    if (!line) throw notFound('There is no such voice line.', 'voice_line_not_found');
    const file = path.join(this.dir, `${id}.mp3`);
    if (fs.existsSync(file)) return file;
    let job = this.inFlight.get(id);
    if (!job) {
      job = this.render(line, file).finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, job);
    }
    return job;
  }

  /** Renders every clip not on disk yet, one at a time (the machine keeps serving meanwhile). */
  async warm(): Promise<number> {
    let made = 0;
    for (const id of this.byId.keys()) {
      if (this.stopped) break;
      if (fs.existsSync(path.join(this.dir, `${id}.mp3`))) continue;
      try {
        await this.file(id);
        made += 1;
      } catch (err) {
        this.logger.warn({ err: (err as Error).message }, 'voice line not rendered; the page will use the browser voice');
        break;
      }
    }
    if (made) this.logger.info({ made, total: this.byId.size }, 'voice lines rendered');
    return made;
  }

  stop(): void {
    this.stopped = true;
  }

  private async render(line: FixedLine, file: string): Promise<string> {
    // the same request the player would send, so the TTS cache is shared with POST /api/tts
    const body = ttsBodySchema.parse({ text: line.text, format: 'mp3', ...(line.companion ? { companion: line.companion } : {}) });
    const result = await this.tts.synthesize(body);
    fs.mkdirSync(this.dir, { recursive: true });
    writeAtomic(file, Buffer.from(result.audio, 'base64'));
    return file;
  }
}

export function lineKey(line: FixedLine): string {
  return `${line.companion ?? '-'}|${line.text}`;
}

/**
 * GET /kids/voice/{hash}.mp3 (public: the login page needs it before anyone logs in; only the
 * fixed lines exist, so nobody can make the service speak their own text), plus the manifest
 * every kids page embeds (res.locals.voiceLines).
 */
export function registerVoiceLines(ctx: AppContext, lines: VoiceLines): void {
  ctx.app.use('/kids', (_req, res, next) => {
    res.locals.voiceLines = lines.manifest();
    next();
  });
  ctx.app.get('/kids/voice/:file', async (req, res) => {
    const m = /^([a-f0-9]{64})\.mp3$/.exec(String(req.params.file));
    if (!m) throw notFound('There is no such voice line.', 'voice_line_not_found');
    let file: string;
    try {
      file = await lines.file(m[1]!);
    } catch (err) {
      if ((err as { status?: number }).status === 404) throw err;
      throw serviceUnavailable('The voice is not available right now.', 'voice_line_unavailable');
    }
    // the name changes with the sound, so the clip never changes under its name
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.type('audio/mpeg');
    res.sendFile(path.resolve(file));
  });
  let warming: Promise<number> | null = null;
  if (ctx.config.VOICE_PRERENDER) {
    ctx.onStart(() => {
      // in the background: the service answers at once, the clips follow (about 1 s each with espeak-ng)
      warming = lines.warm();
    });
  }
  ctx.onClose(async () => {
    lines.stop();
    // the clip being rendered finishes before the data dir may go away
    await warming;
  });
}
