import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../logger.js';
import { buildArpa, buildDictionary, buildJsgf, pronounceable } from './grammar.js';
import { buildBigramArpa } from './ngram.js';
import { DEFAULT_GATE, SAMPLE_RATE, isSilentOrSteady, measureLevels, readPcm16, trimToSpeech, withNoiseFloor, toRecognizerPcmArgs, type Levels, type SpeechGate } from './audio.js';
import { DEFAULT_TUNING, modelPaths, parseHypotheses, pocketsphinxArgs, type DecoderTuning, type Hypothesis } from './pocketsphinx.js';
import { Pronouncer, type Runner } from './pronouncer.js';
import { DEFAULT_SPEAKER_WARPS, SpeakerWarps, type SpeakerWarpOptions } from './speaker-warps.js';
import { buildVocabulary, loadChildWords, type AnswerContext, type ChildWord, type VocabularyWeights } from './vocabulary.js';

export interface LocalRecognizerOptions {
  ffmpegPath: string;
  espeakPath: string;
  /** pocketsphinx_batch */
  pocketsphinxPath: string;
  /** pocketsphinx-en-us model directory (holds en-us/ and cmudict-en-us.dict) */
  modelDir: string;
  /** where per-request work directories are made (and always removed) */
  workRoot: string;
  run: Runner;
  logger?: Logger;
  weights?: VocabularyWeights;
  tuning?: DecoderTuning;
  gate?: SpeechGate;
  childWords?: readonly ChildWord[];
  /** per-speaker vocal tract length normalization (speaker-warps.ts) */
  speakerWarps?: SpeakerWarpOptions;
  /** per process; a stuck decoder is killed after this */
  timeoutMs?: number;
}

/** Priors of the search (bench/speech.ts measured these; see docs/speech.md). */
export const DEFAULT_WEIGHTS: VocabularyWeights = { focus: 60, related: 4, glue: 10, common: 1, inflected: 0.3, same: 30, broader: 10, kin: 4 };

export interface LocalTranscript {
  text: string;
  /** true when the level gate found no speech (pocketsphinx was not run) */
  noSpeech: boolean;
  levels: Levels;
  vocabularySize: number;
  decodeMs: number;
  /** the vocal tract warp the text was decoded with (1 = none), and how many warps were tried */
  warp: number;
  decodes: number;
}

export interface TranscribeOptions {
  signal?: AbortSignal;
  /**
   * Who is speaking (a child's id): the recognizer learns which vocal tract warp fits each
   * speaker from their first answers. Without it no warp is applied.
   */
  speaker?: string;
}

/**
 * The local speech recognizer: ffmpeg makes 16 kHz mono PCM, a level gate turns silence and
 * steady noise into "nothing said", and pocketsphinx decodes the rest over the child
 * vocabulary plus the context's words (weighted up, never exclusive), with the vocal tract
 * warp that fits the speaker (speaker-warps.ts). Every file it writes
 * lives in a fresh work directory that is removed before it returns, on every path.
 */
export class LocalRecognizer {
  readonly pronouncer: Pronouncer;
  private readonly weights: VocabularyWeights;
  private readonly tuning: DecoderTuning;
  private readonly gate: SpeechGate;
  private readonly model: { hmm: string; dict: string };
  readonly warps: SpeakerWarps;

  constructor(private readonly o: LocalRecognizerOptions) {
    this.model = modelPaths(o.modelDir);
    this.pronouncer = new Pronouncer(this.model.dict, o.espeakPath, o.run, o.logger);
    this.weights = o.weights ?? DEFAULT_WEIGHTS;
    this.tuning = o.tuning ?? DEFAULT_TUNING;
    this.gate = o.gate ?? DEFAULT_GATE;
    this.warps = new SpeakerWarps(o.speakerWarps ?? DEFAULT_SPEAKER_WARPS);
  }

  /** Why the recognizer cannot run here (model files missing), or null; a missing binary shows when it runs. */
  async unavailableReason(): Promise<string | null> {
    try {
      await fs.access(path.join(this.model.hmm, 'mdef'));
      await fs.access(this.model.dict);
    } catch {
      return `The pocketsphinx-en-us model was not found in ${this.o.modelDir}. Install it with "apt-get install pocketsphinx-en-us" or set POCKETSPHINX_MODEL_DIR.`;
    }
    return null;
  }

  async transcribe(input: string, context: AnswerContext, opts: TranscribeOptions = {}): Promise<LocalTranscript> {
    const work = path.join(this.o.workRoot, `asr-${crypto.randomBytes(8).toString('hex')}`);
    await fs.mkdir(work, { recursive: true, mode: 0o700 });
    try {
      return await this.transcribeIn(work, input, context, opts);
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  }

  private async transcribeIn(work: string, input: string, context: AnswerContext, { signal, speaker }: TranscribeOptions): Promise<LocalTranscript> {
    const timeoutMs = this.o.timeoutMs ?? 30_000;
    const audio = path.join(work, 'speech.raw');
    await this.o.run(this.o.ffmpegPath, toRecognizerPcmArgs(input, audio), { timeoutMs, signal, logger: this.o.logger });
    const samples = readPcm16(await fs.readFile(audio));
    const levels = measureLevels(samples, SAMPLE_RATE, this.gate);
    if (isSilentOrSteady(levels, this.gate)) return { text: '', noSpeech: true, levels, vocabularySize: 0, decodeMs: 0, warp: 1, decodes: 0 };
    const floored = withNoiseFloor(trimToSpeech(samples, levels));
    await fs.writeFile(audio, Buffer.from(floored.buffer, floored.byteOffset, floored.byteLength));

    const started = Date.now();
    const wanted = buildVocabulary(this.o.childWords ?? loadChildWords(), context, this.weights);
    const prons = await this.pronouncer.pronounce(
      wanted.map((w) => w.word),
      signal,
    );
    const words = pronounceable(wanted, prons);
    const dict = path.join(work, 'words.dict');
    const search = path.join(work, this.tuning.search === 'jsgf' ? 'answer.gram' : 'answer.arpa');
    const ctl = path.join(work, 'speech.ctl');
    await fs.writeFile(dict, buildDictionary(words, prons));
    const kind = this.tuning.search;
    await fs.writeFile(search, kind === 'jsgf' ? buildJsgf(words) : kind === 'lm' ? buildArpa(words) : buildBigramArpa(words, context));
    await fs.writeFile(ctl, 'speech\n');

    // one decode per warp, one after another: a recognition takes one core (the limiter counts on it)
    const warps = this.warps.warpsFor(speaker);
    const decoded: Hypothesis[] = [];
    for (const [i, warp] of warps.entries()) {
      const files = { audioDir: work, ctl, dict, search, hmm: this.model.hmm, hyp: path.join(work, `${i}.hyp`), hypseg: path.join(work, `${i}.seg`) };
      await this.o.run(this.o.pocketsphinxPath, pocketsphinxArgs(files, this.tuning, warp), { timeoutMs, signal, logger: this.o.logger });
      const [hyp] = parseHypotheses(await fs.readFile(files.hyp, 'utf8'), await fs.readFile(files.hypseg, 'utf8'));
      decoded.push(hyp ?? { utterance: 'speech', words: [], score: 0, frames: 0 });
    }
    const perFrame = decoded.map((h) => h.score / Math.max(1, h.frames));
    let pick = speaker === undefined ? 0 : Math.max(0, warps.indexOf(this.warps.chosen(speaker)));
    if (speaker !== undefined && warps.length > 1 && decoded.some((h) => h.words.length > 0 && h.frames > 0)) {
      pick = decodeToKeep(warps, perFrame, this.warps.learn(speaker, warps, perFrame));
    }
    const best = decoded[pick]!;
    return { text: best.words.join(' '), noSpeech: false, levels, vocabularySize: words.length, decodeMs: Date.now() - started, warp: warps[pick]!, decodes: warps.length };
  }
}

/**
 * Which of an answer's decodes gives the transcript: the one at the speaker's chosen warp, or,
 * when the choice moved past the warps decoded for this answer, the best of those per frame.
 */
export function decodeToKeep(warps: readonly number[], perFrame: readonly number[], chosen: number): number {
  const at = warps.indexOf(chosen);
  if (at >= 0) return at;
  return perFrame.reduce((best, s, i) => (s > perFrame[best]! ? i : best), 0);
}
