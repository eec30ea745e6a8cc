import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lemmatize } from '../../quiz/grading/morphology.js';
import type { AnswerNeighbours } from '../../quiz/grading/neighbours.js';
import { distinctWords } from './words.js';

const VOCABULARY_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'vocabulary');
/** Where the shipped child vocabulary lives (built by vocabulary/build-child-words.ts). */
export const CHILD_WORDS_FILE = path.join(VOCABULARY_DIR, 'child-words.txt');
export const INFLECTED_WORDS_FILE = path.join(VOCABULARY_DIR, 'child-words-inflected.txt');

/**
 * What the recognizer may expect to hear for one answer: `focus` holds the texts of the
 * question being answered (question and expected answer), `related` the other questions and
 * answers of the same video, `neighbours` the words the grader's meaning tables put around the
 * expected answer (same meaning, broader, near but different: quiz/grading/neighbours.ts).
 * All of them only raise the prior of their words; the whole child vocabulary stays in the
 * search, so a different answer can still win.
 */
export interface AnswerContext {
  focus: string[];
  related: string[];
  neighbours?: AnswerNeighbours;
}

export const EMPTY_CONTEXT: AnswerContext = { focus: [], related: [] };

export interface VocabularyWeights {
  /** words of the question being answered */
  focus: number;
  /** words of the video's other questions and answers */
  related: number;
  /** short words that glue children's answers together ("it", "was", "the") */
  glue: number;
  /** every other word of the child vocabulary */
  common: number;
  /** inflected forms of those words ("jumped", "ponies"), and the share an inflected form of a neighbour word gets of its weight */
  inflected: number;
  /** words meaning the same as the expected answer ("bunny" for "rabbit") */
  same: number;
  /** broader words ("bird" for "owl") */
  broader: number;
  /** near but different answers ("blue" for "red") */
  kin: number;
}

export interface ChildWord {
  word: string;
  inflected: boolean;
}

export interface WeightedWord {
  word: string;
  weight: number;
}

/** Short words nearly every spoken answer contains. */
export const GLUE_WORDS = new Set(
  ('a an the and it was is he she they i my his her its to of in on at with because um uh there were ' +
    'that this what he\'s she\'s it\'s they\'re was not no yes').split(' '),
);

let cached: readonly ChildWord[] | undefined;

/** The shipped child vocabulary (a few thousand words with their inflected forms), read once. */
export function loadChildWords(): readonly ChildWord[] {
  cached ??= [
    ...readWordFile(CHILD_WORDS_FILE).map((word) => ({ word, inflected: false })),
    ...readWordFile(INFLECTED_WORDS_FILE).map((word) => ({ word, inflected: true })),
  ];
  return cached;
}

export function readWordFile(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/**
 * The weighted word list of one recognition: the child vocabulary plus every word of the
 * context, each with the largest weight that applies to it.
 */
export function buildVocabulary(childWords: readonly ChildWord[], context: AnswerContext, w: VocabularyWeights): WeightedWord[] {
  const weights = new Map<string, number>();
  const raise = (word: string, weight: number) => weights.set(word, Math.max(weights.get(word) ?? 0, weight));
  for (const { word, inflected } of childWords) raise(word, GLUE_WORDS.has(word) ? w.glue : inflected ? w.inflected : w.common);
  const inflections = inflectionsOf(childWords);
  const raiseTexts = (texts: readonly string[] | undefined, weight: number) => {
    for (const word of distinctWords(texts ?? [])) {
      if (GLUE_WORDS.has(word)) {
        raise(word, w.glue);
        continue;
      }
      raise(word, weight);
      for (const form of inflections.get(word) ?? []) raise(form, weight * w.inflected);
    }
  };
  raiseTexts(context.neighbours?.kin, w.kin);
  raiseTexts(context.neighbours?.broader, w.broader);
  raiseTexts(context.neighbours?.same, w.same);
  for (const word of distinctWords(context.related)) raise(word, GLUE_WORDS.has(word) ? w.glue : w.related);
  for (const word of distinctWords(context.focus)) raise(word, GLUE_WORDS.has(word) ? w.glue : w.focus);
  return [...weights].map(([word, weight]) => ({ word, weight })).sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
}

const inflectionCache = new WeakMap<readonly ChildWord[], Map<string, string[]>>();
/** base word -> its inflected forms in the child vocabulary ("hop" -> hopped, hopping, hops) */
function inflectionsOf(childWords: readonly ChildWord[]): Map<string, string[]> {
  let map = inflectionCache.get(childWords);
  if (!map) {
    map = new Map();
    for (const { word, inflected } of childWords) {
      if (!inflected) continue;
      const base = lemmatize(word);
      map.set(base, [...(map.get(base) ?? []), word]);
    }
    inflectionCache.set(childWords, map);
  }
  return map;
}
