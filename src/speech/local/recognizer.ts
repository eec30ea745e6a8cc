import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../logger.js';
import { buildArpa, buildDictionary, buildJsgf, pronounceable } from './grammar.js';
import { buildBigramArpa } from './ngram.js';
import { DEFAULT_GATE, isSilentOrSteady, measureLevels, readPcm16Wav, toRecognizerWavArgs, type Levels, type SpeechGate } from './audio.js';
import {
  CMN_PASS_DICT, CMN_PASS_GRAMMAR, DEFAULT_TUNING, cmnPassArgs, modelPaths, parseCmnUpdate, parseTimedWords, pocketsphinxArgs, withCmnInit,
  type DecoderTuning,
} from './pocketsphinx.js';
import { Pronouncer, type Runner } from './pronouncer.js';
import { buildVocabulary, loadChildWords, type AnswerContext, type ChildWord, type VocabularyWeights } from './vocabulary.js';

export interface LocalRecognizerOptions {
  ffmpegPath: string;
  espeakPath: string;
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
  /** run the CMN estimation pass first (see cmnPassArgs); default true */
  estimateCmn?: boolean;
  /** words whose posterior probability is below this are dropped; default 0 */
  minWordProb?: number;
  /** per process; a stuck decoder is killed after this */
  timeoutMs?: number;
}

/** Priors of the search (bench/speech.ts measured these; see docs/speech.md). */
export const DEFAULT_WEIGHTS: VocabularyWeights = { focus: 60, related: 4, glue: 10, common: 1, inflected: 0.3 };

export interface LocalTranscript {
  text: string;
  /** true when the level gate found no speech (pocketsphinx was not run) */
  noSpeech: boolean;
  levels: Levels;
  vocabularySize: number;
  decodeMs: number;
}

/**
 * The local speech recognizer: ffmpeg makes 16 kHz mono WAV, a level gate turns silence and
 * steady noise into "nothing said", and pocketsphinx decodes the rest over the child
 * vocabulary plus the context's words (weighted up, never exclusive). Every file it writes
 * lives in a fresh work directory that is removed before it returns, on every path.
 */
export class LocalRecognizer {
  readonly pronouncer: Pronouncer;
  private readonly weights: VocabularyWeights;
  private readonly tuning: DecoderTuning;
  private readonly gate: SpeechGate;
  private readonly model: { hmm: string; dict: string };
  private readonly estimateCmn: boolean;
  private modelFiles?: Promise<string[]>;
  private readonly minProb: number;

  constructor(private readonly o: LocalRecognizerOptions) {
    this.model = modelPaths(o.modelDir);
    this.pronouncer = new Pronouncer(this.model.dict, o.espeakPath, o.run, o.logger);
    this.weights = o.weights ?? DEFAULT_WEIGHTS;
    this.tuning = o.tuning ?? DEFAULT_TUNING;
    this.gate = o.gate ?? DEFAULT_GATE;
    this.estimateCmn = o.estimateCmn ?? true;
    this.minProb = o.minWordProb ?? 0;
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

  async transcribe(input: string, context: AnswerContext, signal?: AbortSignal): Promise<LocalTranscript> {
    const work = path.join(this.o.workRoot, `asr-${crypto.randomBytes(8).toString('hex')}`);
    await fs.mkdir(work, { recursive: true, mode: 0o700 });
    try {
      return await this.transcribeIn(work, input, context, signal);
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  }

  private async transcribeIn(work: string, input: string, context: AnswerContext, signal?: AbortSignal): Promise<LocalTranscript> {
    const timeoutMs = this.o.timeoutMs ?? 30_000;
    const wav = path.join(work, 'speech.wav');
    await this.o.run(this.o.ffmpegPath, toRecognizerWavArgs(input, wav), { timeoutMs, signal, logger: this.o.logger });
    const { sampleRate, samples } = readPcm16Wav(await fs.readFile(wav));
    const levels = measureLevels(samples, sampleRate, this.gate);
    if (isSilentOrSteady(levels, this.gate)) return { text: '', noSpeech: true, levels, vocabularySize: 0, decodeMs: 0 };

    const started = Date.now();
    const hmm = this.estimateCmn ? await this.adaptedModel(work, wav, timeoutMs, signal) : this.model.hmm;
    const wanted = buildVocabulary(this.o.childWords ?? loadChildWords(), context, this.weights);
    const prons = await this.pronouncer.pronounce(
      wanted.map((w) => w.word),
      signal,
    );
    const words = pronounceable(wanted, prons);
    const dict = path.join(work, 'words.dict');
    const search = path.join(work, this.tuning.search === 'jsgf' ? 'answer.gram' : 'answer.arpa');
    await fs.writeFile(dict, buildDictionary(words, prons));
    const kind = this.tuning.search;
    await fs.writeFile(search, kind === 'jsgf' ? buildJsgf(words) : kind === 'lm' ? buildArpa(words) : buildBigramArpa(words, context));
    const res = await this.o.run(this.o.pocketsphinxPath, pocketsphinxArgs({ wav, dict, search, hmm }, this.tuning), {
      timeoutMs,
      signal,
      logger: this.o.logger,
    });
    const heard = parseTimedWords(res.stdout.toString('utf8')).filter((w) => w.prob >= this.minProb);
    const text = heard.map((w) => w.word).join(' ');
    return { text, noSpeech: false, levels, vocabularySize: words.length, decodeMs: Date.now() - started };
  }

  /**
   * A copy of the acoustic model (symlinks) whose feat.params starts CMN at this recording's
   * own mean, measured by a cheap first pass. Falls back to the stock model when the first
   * pass heard no utterance.
   */
  private async adaptedModel(work: string, wav: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
    const grammar = path.join(work, 'cmn.gram');
    const dict = path.join(work, 'cmn.dict');
    await fs.writeFile(grammar, CMN_PASS_GRAMMAR);
    await fs.writeFile(dict, CMN_PASS_DICT);
    let cmn: number[] | null = null;
    await this.o.run(this.o.pocketsphinxPath, cmnPassArgs(wav, this.model.hmm, grammar, dict, this.tuning.warp), {
      timeoutMs,
      signal,
      logger: this.o.logger,
      onStderrLine: (line) => {
        cmn = parseCmnUpdate(line) ?? cmn;
      },
    });
    if (!cmn) return this.model.hmm;
    const hmm = path.join(work, 'hmm');
    await fs.mkdir(hmm);
    this.modelFiles ??= fs.readdir(this.model.hmm);
    for (const name of await this.modelFiles) {
      if (name !== 'feat.params') await fs.symlink(path.join(this.model.hmm, name), path.join(hmm, name));
    }
    const params = await fs.readFile(path.join(this.model.hmm, 'feat.params'), 'utf8');
    await fs.writeFile(path.join(hmm, 'feat.params'), withCmnInit(params, cmn));
    return hmm;
  }
}
