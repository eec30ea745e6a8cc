import fs from 'node:fs/promises';
import type { Logger } from '../../logger.js';
import type { RunOptions, RunResult } from '../../pipeline/process-runner.js';
import { ARPABET, ipaToArpabet } from './phonemes.js';

export type Runner = (cmd: string, args: readonly string[], opts?: RunOptions) => Promise<RunResult>;

/** A word and its pronunciations (ARPAbet, phones separated by spaces). */
export type Pronunciations = Map<string, string[]>;

/**
 * Pronunciations for the recognizer's dictionary: the CMU dictionary that ships with
 * pocketsphinx-en-us (read once, lazily), and espeak-ng for the words it lacks (names,
 * made-up words), remembered for the life of the process.
 */
export class Pronouncer {
  private dict?: Promise<Pronunciations>;
  private readonly guessed = new Map<string, string | null>();

  constructor(
    private readonly dictFile: string,
    private readonly espeakPath: string,
    private readonly run: Runner,
    private readonly logger?: Logger,
  ) {}

  /** The CMU dictionary (134k words), parsed on first use. */
  dictionary(): Promise<Pronunciations> {
    this.dict ??= fs.readFile(this.dictFile, 'utf8').then(parseDictionary);
    this.dict.catch(() => {
      this.dict = undefined;
    });
    return this.dict;
  }

  /**
   * Pronunciations of every word that has one; words neither the dictionary nor espeak-ng can
   * pronounce are left out (the recognizer simply cannot hear them).
   */
  async pronounce(words: Iterable<string>, signal?: AbortSignal): Promise<Pronunciations> {
    const dict = await this.dictionary();
    const out: Pronunciations = new Map();
    const unknown: string[] = [];
    for (const w of words) {
      const known = dict.get(w);
      if (known) out.set(w, known);
      else if (!this.guessed.has(w)) unknown.push(w);
      else if (this.guessed.get(w)) out.set(w, [this.guessed.get(w) as string]);
    }
    if (unknown.length > 0) {
      const guesses = await this.espeakPronounce(unknown, signal);
      unknown.forEach((w, i) => {
        const pron = guesses[i] ?? null;
        this.guessed.set(w, pron);
        if (pron) out.set(w, [pron]);
      });
    }
    return out;
  }

  /** One espeak-ng call for all unknown words (one per line in, one IPA line out). */
  private async espeakPronounce(words: string[], signal?: AbortSignal): Promise<(string | null)[]> {
    const args = ['-q', '-v', 'en-us', '--ipa', '--sep=_'];
    const res = await this.run(this.espeakPath, args, { input: words.join('\n') + '\n', timeoutMs: 15_000, signal, logger: this.logger });
    const lines = res.stdout.toString('utf8').split('\n').map((l) => l.trim()).filter(Boolean);
    if (lines.length !== words.length) {
      // espeak-ng joined or split lines: ask word by word instead (rare, and cached afterwards)
      const one: (string | null)[] = [];
      for (const w of words) {
        const r = await this.run(this.espeakPath, [...args, w], { timeoutMs: 15_000, signal, logger: this.logger });
        one.push(toPron(r.stdout.toString('utf8').trim()));
      }
      return one;
    }
    return lines.map(toPron);
  }
}

function toPron(ipaLine: string): string | null {
  const phones = ipaToArpabet(ipaLine).filter((p) => ARPABET.has(p));
  return phones.length > 0 ? phones.join(' ') : null;
}

/** "word PH PH" and "word(2) PH PH" lines -> word -> pronunciations. */
export function parseDictionary(text: string): Pronunciations {
  const out: Pronunciations = new Map();
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ');
    if (space <= 0) continue;
    const word = line.slice(0, space).replace(/\(\d+\)$/, '');
    const pron = line.slice(space + 1).trim();
    if (!pron) continue;
    const list = out.get(word);
    if (list) list.push(pron);
    else out.set(word, [pron]);
  }
  return out;
}
