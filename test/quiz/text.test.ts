import { describe, expect, it } from 'vitest';
import { jaroWinkler, levenshtein, levenshteinRatio, phoneticKey } from '../../src/quiz/grading/fuzzy.js';
import { normalizeText, wordsToNumbers } from '../../src/quiz/grading/normalize.js';
import { lemmatize } from '../../src/quiz/grading/morphology.js';
import { SYNONYMS } from '../../src/quiz/grading/lexicon-meaning.js';
import { isBroaderThan, sameGroup, conceptOf } from '../../src/quiz/grading/lexicon.js';

describe('string distances', () => {
  it('levenshtein counts edits', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('same', 'same')).toBe(0);
    expect(levenshteinRatio('read', 'red')).toBe(0.75);
  });

  it('jaro-winkler rewards a shared start', () => {
    expect(jaroWinkler('martha', 'marhta')).toBeCloseTo(0.961, 3);
    expect(jaroWinkler('dixon', 'dicksonx')).toBeCloseTo(0.813, 3);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
  });

  it('phonetic keys match words that sound alike, not others', () => {
    expect(phoneticKey('read')).toBe(phoneticKey('red'));
    expect(phoneticKey('biskit')).toBe(phoneticKey('biscuit'));
    expect(phoneticKey('brewno')).toBe(phoneticKey('bruno'));
    expect(phoneticKey('knight')).toBe(phoneticKey('night'));
    expect(phoneticKey('phone')).toBe(phoneticKey('fone'));
    expect(phoneticKey('cat')).not.toBe(phoneticKey('hat'));
    expect(phoneticKey('bear')).not.toBe(phoneticKey('pear'));
  });
});

describe('normalizeText', () => {
  it.each([
    ["It wasn't RED!", 'it was not red'],
    ["'cause it's raining", 'because it is raining'],
    ["the bear's cave", 'the bear cave'],
    ['Mr. Buttons', 'mister buttons'],
    ['T-rex', 't rex'],
    ['apples, pears & plums', 'apples , pears and plums'],
    ['  café  ', 'cafe'],
    ['idk', 'i do not know'],
  ])('%j -> %j', (input, out) => expect(normalizeText(input)).toBe(out));
});

describe('wordsToNumbers', () => {
  const n = (s: string, numeric = true, homophones = false) => wordsToNumbers(s.split(' '), numeric, homophones).join(' ');
  it('reads number words, tens and hundreds', () => {
    expect(n('twenty one apples')).toBe('21 apples');
    expect(n('a hundred and five')).toBe('105');
    expect(n('three hundred')).toBe('300');
    expect(n('the red one', false)).toBe('the red one');
    expect(n('five red ones')).toBe('5 red ones');
  });
  it('reads homophones and ordinals only when a number is expected', () => {
    expect(n('too', true, true)).toBe('2');
    expect(n('to the park', false, false)).toBe('to the park');
    // before a determiner or pronoun a homophone is a preposition or verb, even when a count is expected
    expect(n('he went to the earth', true, true)).toBe('he went to the earth');
    expect(n('for my mom', true, true)).toBe('for my mom');
    expect(n('i ate it', true, true)).toBe('i ate it');
    expect(n('i think too', true, true)).toBe('i think 2');
    expect(n('first they ran', false)).toBe('first they ran');
    expect(n('the first one', true)).toBe('the 1 one');
  });
});

describe('lemmatize', () => {
  it.each([
    ['sandwiches', 'sandwich'], ['strawberries', 'strawberry'], ['leaves', 'leaf'], ['hopping', 'hop'], ['hopped', 'hop'],
    ['chased', 'chase'], ['chasing', 'chase'], ['ran', 'run'], ['went', 'go'], ['red', 'red'], ['ground', 'ground'], ['found', 'find'],
    ['slowly', 'slow'], ['happily', 'happy'], ['bigger', 'big'], ['mice', 'mouse'], ['riding', 'ride'],
    ['huge', 'huge'], ['hoping', 'hope'], ['wakes', 'wake'], ['evening', 'evening'], ['singing', 'sing'],
  ])('%s -> %s', (word, lemma) => expect(lemmatize(word)).toBe(lemma));

  it('keeps every form of a word together', () => {
    expect(lemmatize('dance')).toBe(lemmatize('danced'));
    expect(lemmatize('dance')).toBe(lemmatize('dancing'));
    expect(lemmatize('hug')).not.toBe(lemmatize('huge'));
    expect(lemmatize('mice')).toBe(lemmatize('mouse'));
  });
});

describe('lexicon', () => {
  it('puts no word in two synonym groups', () => {
    const seen = new Map<string, string>();
    for (const group of SYNONYMS) {
      for (const word of group) {
        const key = word.includes(' ') ? word : lemmatize(word);
        const owner = seen.get(key);
        expect(owner === undefined || owner === group[0], `${word} is in ${owner} and ${group[0]}`).toBe(true);
        seen.set(key, group[0] as string);
      }
    }
  });

  it('knows vaguer words, kinds and groups (the overlay; WordNet gives the rest, see grader-resources)', () => {
    expect(isBroaderThan('animal', 'sheep')).toBe(true);
    expect(isBroaderThan('bug', 'ant')).toBe(true);
    expect(isBroaderThan('house', 'bed')).toBe(true);
    expect(isBroaderThan('house', 'tent')).toBe(false);
    expect(sameGroup('sheep', 'goat')).toBe(true);
    expect(sameGroup('dog', 'puppy')).toBe(false);
    expect(conceptOf(lemmatize('mommy'))).toBe('mother');
  });
});
