import type { Pronunciations } from './pronouncer.js';
import type { WeightedWord } from './vocabulary.js';

/**
 * Pure builders for the files pocketsphinx reads: the pronunciation dictionary of just the
 * vocabulary, and the search space over it, either a JSGF word loop (`<word>+`, each word with
 * its weight) or the equivalent unigram language model in ARPA form. Both say "any sequence of
 * these words, the likelier ones more often"; they never say "exactly this answer".
 */

/** Only words the dictionary can pronounce may enter the search. */
export function pronounceable(words: readonly WeightedWord[], prons: Pronunciations): WeightedWord[] {
  return words.filter((w) => prons.has(w.word) && /^[a-z0-9'][a-z0-9'.-]*$/.test(w.word));
}

/** `word PH PH`, then `word(2) PH PH` for alternative pronunciations. */
export function buildDictionary(words: readonly WeightedWord[], prons: Pronunciations): string {
  const lines: string[] = [];
  for (const { word } of words) {
    const list = prons.get(word) ?? [];
    list.forEach((p, i) => lines.push(`${i === 0 ? word : `${word}(${i + 1})`} ${p}`));
  }
  return lines.join('\n') + '\n';
}

/** A JSGF word loop: one or more words, each weighted. */
export function buildJsgf(words: readonly WeightedWord[]): string {
  if (words.length === 0) throw new Error('The vocabulary is empty.');
  const alternatives = words.map((w) => `/${formatWeight(w.weight)}/ ${w.word}`).join(' | ');
  return `#JSGF V1.0;\ngrammar answer;\npublic <answer> = <word>+;\n<word> = ${alternatives};\n`;
}

/**
 * The same loop as a unigram ARPA model: P(word) proportional to its weight. `endProb` is the
 * chance of ending after any word (it plays the role of a word insertion penalty).
 */
export function buildArpa(words: readonly WeightedWord[], endProb = 0.2): string {
  if (words.length === 0) throw new Error('The vocabulary is empty.');
  const total = words.reduce((s, w) => s + w.weight, 0);
  const lines = ['\\data\\', `ngram 1=${words.length + 2}`, '', '\\1-grams:', '-99.0000 <s> 0.0000', `${log10(endProb)} </s> 0.0000`];
  for (const w of words) lines.push(`${log10(((1 - endProb) * w.weight) / total)} ${w.word} 0.0000`);
  lines.push('', '\\end\\', '');
  return lines.join('\n');
}

function log10(p: number): string {
  return Math.log10(Math.max(p, 1e-99)).toFixed(4);
}

function formatWeight(w: number): string {
  return Number.isInteger(w) ? w.toFixed(1) : String(Math.round(w * 1000) / 1000);
}
