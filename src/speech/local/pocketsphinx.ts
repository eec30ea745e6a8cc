import path from 'node:path';

/**
 * Arguments for `pocketsphinx_batch` (pocketsphinx 0.8, Debian) decoding prepared recordings
 * with our own dictionary and search space, and the parser of what it writes. Pure functions.
 *
 * Batch mode decodes each recording as one utterance, so the acoustic model's cepstral mean
 * normalization (`-cmn batch` in its feat.params) uses the recording's own mean. A one-second
 * answer is far too short for the live normalization of `pocketsphinx_continuous`, which starts
 * from the model's training average ("a butterfly" came out as "wandered on"); see docs/speech.md.
 *
 * Option reference: `pocketsphinx_batch` without arguments lists them with their defaults.
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
}

/**
 * Measured with bench/speech.ts (docs/speech.md): pocketsphinx's own defaults for insertion
 * penalty, filler probability and beams did better than narrower or stricter settings; the
 * gains came from the bigram search and the per-recording CMN, not from these knobs.
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
};

export interface DecodeFiles {
  /** folder holding each utterance as `<name>.raw` (16 kHz mono 16-bit PCM, no header) */
  audioDir: string;
  /** control file: the utterance names, one per line */
  ctl: string;
  dict: string;
  /** the JSGF grammar or ARPA model, per tuning.search */
  search: string;
  /** the acoustic model directory (pocketsphinx-en-us: .../model/en-us/en-us) */
  hmm: string;
  /** where the hypotheses (`words (name score)`) and their segmentations are written */
  hyp: string;
  hypseg: string;
}

/**
 * `warp` is vocal tract length normalization: frequencies are divided by it before the filter
 * bank (inverse_linear), so above 1 moves a child's higher formants toward the adult model's.
 */
export function pocketsphinxArgs(files: DecodeFiles, t: DecoderTuning = DEFAULT_TUNING, warp = 1): string[] {
  return [
    '-ctl', files.ctl,
    '-cepdir', files.audioDir,
    '-cepext', '.raw',
    '-adcin', 'yes',
    '-adchdr', '0',
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
    ...(warp === 1 ? [] : ['-warp_type', 'inverse_linear', '-warp_params', String(warp)]),
    '-hyp', files.hyp,
    '-hypseg', files.hypseg,
    // the log goes to stderr, which the runner keeps only as a tail for error messages
    '-logfn', '/dev/null',
  ];
}

export interface Hypothesis {
  /** the utterance name from the control file */
  utterance: string;
  /** the words, without fillers, silences or alternative-pronunciation marks */
  words: string[];
  /** the path score (log, acoustic + language), comparable between decodes of the same audio */
  score: number;
  /** frames decoded (10 ms each; pocketsphinx leaves out the silence it cut) */
  frames: number;
}

/**
 * The `-hyp` file has one `words (name score)` line per utterance; the `-hypseg` file one
 * `name S x T total A acoustic L language  frame ascr lscr word ... endframe` line.
 */
export function parseHypotheses(hyp: string, hypseg: string): Hypothesis[] {
  const frames = new Map<string, number>();
  for (const line of hypseg.split(/\r?\n/)) {
    const parts = line.trim().split(/\s+/);
    const last = Number(parts[parts.length - 1]);
    if (parts.length >= 2 && Number.isFinite(last)) frames.set(parts[0]!, last);
  }
  const out: Hypothesis[] = [];
  for (const line of hyp.split(/\r?\n/)) {
    const m = /^(.*?)\s*\((\S+) (-?\d+)\)\s*$/.exec(line);
    if (!m) continue;
    const words = m[1]!.split(/\s+/).filter((t) => t && !/^[<[(+]/.test(t)).map((t) => t.replace(/\(\d+\)$/, ''));
    out.push({ utterance: m[2]!, words, score: Number(m[3]), frames: frames.get(m[2]!) ?? 0 });
  }
  return out;
}

/**
 * What pocketsphinx_continuous prints: one line per utterance it found (it splits the file at
 * pauses). Filler and silence tokens and alternative-pronunciation marks are removed. Used by the
 * benchmark's baseline, pocketsphinx as it comes.
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

/** The acoustic model and dictionary inside a pocketsphinx-en-us model directory. */
export function modelPaths(modelDir: string): { hmm: string; dict: string } {
  return { hmm: path.join(modelDir, 'en-us'), dict: path.join(modelDir, 'cmudict-en-us.dict') };
}
