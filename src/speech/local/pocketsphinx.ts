import path from 'node:path';

/**
 * Arguments for `pocketsphinx_continuous` (pocketsphinx 0.8, Debian) decoding one WAV file with
 * our own dictionary and search space, and the parser of what it prints. Pure functions.
 *
 * Option reference: `pocketsphinx_continuous` without arguments lists them with their defaults.
 */

/** jsgf: weighted word loop; lm: the same as a unigram model; bigram: plus answer-frame pairs (ngram.ts) */
export type SearchKind = 'jsgf' | 'lm' | 'bigram';

export interface DecoderTuning {
  search: SearchKind;
  /** word insertion penalty: lower = fewer, longer words */
  wip: number;
  /** probability of a silence between words */
  silprob: number;
  /** probability of a filler (the model's noise phones +NSN+, +SPN+): the garbage path for breaths and clicks */
  fillprob: number;
  /** language weight: how much the vocabulary weights count against the acoustics */
  lw: number;
  /** pruning beams: narrower is faster */
  beam: number;
  wbeam: number;
  /** cap on active HMMs per frame, the main speed guard */
  maxhmmpf: number;
  /** pocketsphinx's own spectral noise removal; off works better on clean recordings */
  removeNoise: boolean;
  /**
   * vocal tract length normalization: frequencies are divided by this before the filter bank
   * (inverse_linear warp); above 1 moves a child's higher formants toward the adult model's. 1 = off
   */
  warp: number;
}

/**
 * Measured with bench/speech.ts (docs/speech.md): pocketsphinx's own defaults for insertion
 * penalty, filler probability and beams did better than narrower or stricter settings; the
 * gains came from the bigram search and the CMN pass, not from these knobs.
 */
export const DEFAULT_TUNING: DecoderTuning = {
  search: 'bigram',
  wip: 0.65,
  silprob: 0.005,
  fillprob: 1e-8,
  lw: 6.5,
  beam: 1e-48,
  wbeam: 7e-29,
  maxhmmpf: 30000,
  removeNoise: false,
  warp: 1,
};

export interface DecodeFiles {
  wav: string;
  dict: string;
  /** the JSGF grammar or ARPA model, per tuning.search */
  search: string;
  /** the acoustic model directory (pocketsphinx-en-us: .../model/en-us/en-us) */
  hmm: string;
}

export function pocketsphinxArgs(files: DecodeFiles, t: DecoderTuning = DEFAULT_TUNING): string[] {
  return [
    '-infile', files.wav,
    '-hmm', files.hmm,
    '-dict', files.dict,
    t.search === 'jsgf' ? '-jsgf' : '-lm', files.search,
    '-samprate', '16000',
    '-wip', String(t.wip),
    '-silprob', String(t.silprob),
    '-fillprob', String(t.fillprob),
    '-lw', String(t.lw),
    '-beam', String(t.beam),
    '-wbeam', String(t.wbeam),
    '-maxhmmpf', String(t.maxhmmpf),
    '-remove_noise', t.removeNoise ? 'yes' : 'no',
    // word times and posterior probabilities (to drop unsure words)
    '-time', 'yes',
    ...warpArgs(t.warp),
    // the log goes to stderr, which the runner keeps only as a tail for error messages
    '-logfn', '/dev/null',
  ];
}

/**
 * pocketsphinx_continuous prints one line per utterance it found (it splits the file at
 * pauses). Filler and silence tokens and alternative-pronunciation marks are removed.
 */
export function parseHypothesis(stdout: string): string[] {
  const words: string[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    if (/^(INFO|WARN|ERROR|FATAL)/.test(line)) continue;
    for (const token of line.trim().split(/\s+/)) {
      if (!token || /^[<[(+]/.test(token)) continue;
      words.push(token.replace(/\(\d+\)$/, ''));
    }
  }
  return words;
}

export interface TimedWord {
  word: string;
  start: number;
  end: number;
  /** posterior probability 0..1 (1 when pocketsphinx did not compute one) */
  prob: number;
}

/**
 * With `-time yes` each utterance is printed as its hypothesis line followed by one
 * "word start end posterior" line per word; fillers, silences and sentence marks are dropped.
 */
export function parseTimedWords(stdout: string): TimedWord[] {
  const out: TimedWord[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const parts = line.trim().split(/\s+/);
    if (parts.length !== 4) continue;
    const [word, start, end, prob] = parts as [string, string, string, string];
    if (!/^-?\d+(\.\d+)?$/.test(start) || !/^-?\d+(\.\d+)?$/.test(end) || !/^\d+(\.\d+)?(e-?\d+)?$/.test(prob)) continue;
    if (/^[<[(+]/.test(word)) continue;
    out.push({ word: word.replace(/\(\d+\)$/, ''), start: Number(start), end: Number(end), prob: Math.min(1, Number(prob)) });
  }
  return out;
}

/**
 * First pass: the same audio through a one-word grammar, only to let pocketsphinx's live
 * cepstral mean normalization (CMN) settle on this recording. The model's own starting mean
 * (feat.params -cmninit) is an average of its training audio; on a one-second answer the live
 * mean never catches up from it, and "a butterfly" comes out as "wandered on". The mean it
 * reaches is printed on stderr ("Update to < ... >") and becomes the second pass's start.
 */
export function cmnPassArgs(wav: string, hmm: string, grammar: string, dict: string, warp = 1): string[] {
  return ['-infile', wav, '-hmm', hmm, '-jsgf', grammar, '-dict', dict, '-samprate', '16000', '-remove_noise', 'no', '-maxhmmpf', '500', ...warpArgs(warp)];
}

function warpArgs(warp: number): string[] {
  return warp === 1 ? [] : ['-warp_type', 'inverse_linear', '-warp_params', String(warp)];
}

export const CMN_PASS_GRAMMAR = '#JSGF V1.0;\ngrammar cmn;\npublic <any> = <word>+;\n<word> = a;\n';
export const CMN_PASS_DICT = 'a AH\n';

/** The 13 numbers of a "cmn_live.c(...): Update to   < 54.30 24.57 ... >" log line, or null. */
export function parseCmnUpdate(line: string): number[] | null {
  const m = /Update to\s*<([^>]*)>/.exec(line);
  if (!m) return null;
  const values = m[1]!.trim().split(/\s+/).map(Number);
  return values.length === 13 && values.every(Number.isFinite) ? values : null;
}

/** The model's feat.params with its starting CMN replaced (or added). */
export function withCmnInit(featParams: string, cmn: readonly number[]): string {
  const line = `-cmninit ${cmn.map((v) => v.toFixed(2)).join(',')}`;
  const lines = featParams.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('-cmninit'));
  return [...lines, line, ''].join('\n');
}

/** The acoustic model and dictionary inside a pocketsphinx-en-us model directory. */
export function modelPaths(modelDir: string): { hmm: string; dict: string } {
  return { hmm: path.join(modelDir, 'en-us'), dict: path.join(modelDir, 'cmudict-en-us.dict') };
}
