import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { metaphoneAlike, sameLongCode, yodCoalesced } from '../../src/quiz/grading/fuzzy.js';
import { definedByEachOther, definitionUses, definitionWords } from '../../src/quiz/grading/gloss.js';
import { isCompoundNoun, isKindOfHead, meaningOf } from '../../src/quiz/grading/meaning.js';
import { irregularPastBase, lemmatize, morphy } from '../../src/quiz/grading/morphology.js';
import { wordsToNumbers } from '../../src/quiz/grading/normalize.js';
import { ANTONYMS, SLANG, SYNONYMS, TAXONOMY } from '../../src/quiz/grading/lexicon-meaning.js';
import { loadWordnet, wordnetIndexFile } from '../../src/quiz/grading/wordnet.js';

/** The general resources the grader stands on: WordNet's index, its morphology, Double Metaphone, numbers. */
describe('WordNet index', () => {
  it('is built once into node_modules/.cache and loaded from there', () => {
    const { wordnet, stats } = loadWordnet();
    expect(stats.file).toBe(wordnetIndexFile());
    expect(fs.existsSync(stats.file)).toBe(true);
    expect(wordnet.has('owl', 'n')).toBe(true);
    expect(wordnet.has('sleeping bag', 'n')).toBe(true);
    expect(wordnet.has('hunny')).toBe(false);
    const owl = wordnet.senses('owl', 1)[0] as number;
    expect(wordnet.synset(owl).words).toContain('owl');
  });
});

describe('morphology (WordNet morphy)', () => {
  it.each([
    ['went', 'v', 'go'], ['mice', 'n', 'mouse'], ['hoping', 'v', 'hope'], ['hopping', 'v', 'hop'], ['bigger', 'a', 'big'], ['boxes', 'n', 'box'],
  ] as const)('%s (%s) -> %s', (word, pos, base) => expect(morphy(word, pos)).toBe(base));
  it('keeps a word that is a common noun in its own right, and unknown words', () => {
    expect(lemmatize('ground')).toBe('ground');
    expect(lemmatize('hunny')).toBe('hunny');
    expect(lemmatize('has')).toBe('have');
  });
  it('gives the builtin generator its irregular pasts', () => {
    expect(irregularPastBase('swam')).toBe('swim');
    expect(irregularPastBase('jumped')).toBeUndefined();
  });
});

describe('meaning (WordNet relations)', () => {
  it.each([
    ['woman', 'lady', 'specific'], ['owl', 'bird', 'broader'], ['owl', 'animal', 'broader'], ['red', 'blue', 'sibling'],
    ['dog', 'cat', 'sibling'], ['hot', 'cold', 'opposite'], ['warm', 'cold', 'opposite'], ['cool', 'hot', 'opposite'], ['big', 'huge', 'same'], ['scared', 'afraid', 'same'],
    ['truck', 'music', undefined],
  ] as const)('%s / %s -> %s', (expected, said, relation) => expect(meaningOf(expected, said)).toBe(relation));
  it('knows noun compounds, and which are a kind of their last word', () => {
    expect(isCompoundNoun('maple syrup')).toBe(true);
    expect(isCompoundNoun('big dog')).toBe(false);
    expect(isKindOfHead('brown bear')).toBe(true);
    expect(isKindOfHead('hot chocolate')).toBe(false);
  });
});

describe('definitions (WordNet glosses)', () => {
  it('tells which words a word\'s everyday senses are defined with', () => {
    expect(definitionWords('storm').has('thunder')).toBe(true);
    expect(definitionUses('toy', 'play')).toBe(true);
    expect(definedByEachOther('thunder', 'storm')).toBe(true);
    // a different one of the same kind is not in the other's definition, nor are a definition's empty words
    expect(definedByEachOther('dog', 'cat')).toBe(false);
    expect(definedByEachOther('red', 'blue')).toBe(false);
    expect(definitionUses('toy', 'something')).toBe(false);
  });
});

describe('Double Metaphone', () => {
  it('matches spellings of one sound, not different words', () => {
    expect(metaphoneAlike('hunny', 'honey')).toBe(true);
    expect(metaphoneAlike('twocan', 'toucan')).toBe(true);
    expect(metaphoneAlike('bow', 'bo')).toBe(true);
    expect(metaphoneAlike('cookies', 'cocoa')).toBe(false);
    expect(sameLongCode('aunts', 'ants')).toBe(true);
    expect(sameLongCode('ted', 'tad')).toBe(false);
  });
  it('knows "t"/"d" before a long "u" said as "ch"/"j" (yod coalescence), and only there', () => {
    expect(yodCoalesced('tuesday')).toBe('chuesday');
    expect(yodCoalesced('tuna')).toBe('chuna');
    expect(yodCoalesced('duty')).toBe('juty');
    expect(yodCoalesced('tummy')).toBeUndefined();
    expect(yodCoalesced('duck')).toBeUndefined();
    expect(metaphoneAlike(yodCoalesced('tuesday') as string, 'chooseday')).toBe(true);
  });
});

describe('numbers in spoken forms', () => {
  it('reads twice, once, a couple and a dozen when a count is asked for, and only then', () => {
    expect(wordsToNumbers(['twice'], true)).toEqual(['2']);
    expect(wordsToNumbers(['once'], true)).toEqual(['1']);
    expect(wordsToNumbers(['a', 'couple'], true)).toEqual(['a', '2']);
    expect(wordsToNumbers(['a', 'dozen'], true)).toEqual(['a', '12']);
    expect(wordsToNumbers(['once', 'upon', 'a', 'time'], false)).toEqual(['once', 'upon', 'a', 'time']);
  });
});

describe('the child-word overlay', () => {
  const key = (w: string) => (w.includes(' ') ? w : lemmatize(w));
  it('holds only what WordNet lacks', () => {
    const covered: string[] = [];
    for (const group of SYNONYMS) {
      const head = group[0] as string;
      if (group.slice(1).every((m) => meaningOf(key(head), key(m)) === 'same' && meaningOf(key(m), key(head)) === 'same')) covered.push(group.join('/'));
    }
    for (const [parent, children] of Object.entries(TAXONOMY)) {
      for (const child of children) if (meaningOf(key(child), key(parent)) === 'broader') covered.push(`${child} < ${parent}`);
    }
    for (const [a, b] of ANTONYMS) if (meaningOf(key(a), key(b)) === 'opposite') covered.push(`${a} <> ${b}`);
    for (const [word, concept] of Object.entries(SLANG)) if (meaningOf(concept, word) !== undefined) covered.push(`${word} ~ ${concept}`);
    expect(covered).toEqual([]);
  });
});
