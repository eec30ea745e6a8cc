/**
 * What a word's WordNet definitions say: "toy" is "an artifact designed to be played with", a
 * "storm" comes with "thunder and lightning", "sledding" is "riding on a sled". A child who cannot
 * find the word often says what its definition says ("something to play with", "the thunder"), so
 * a word the child said that an expected word's definition uses (or the other way round) is about
 * the same thing, though it is not the same thing: the ladder counts it as on the right track.
 */
import * as L from './lexicon.js';
import { memoize } from './memo.js';
import { meaningOf } from './meaning.js';
import { lemmatize, readings } from './morphology.js';
import { wordnet } from './wordnet.js';

/** senses of a word whose definitions count, per part of speech (rarer senses say other things) */
const GLOSS_SENSES = 3;

/** Words a definition uses that say nothing about the thing ("a device regarded as providing ...") */
const DEFINITION_FILLER = new Set(['something', 'someone', 'thing', 'one', 'person', 'part', 'kind', 'make', 'use', 'used', 'usually', 'especially', 'often', 'act', 'have', 'be', 'do', 'take', 'give', 'get']);

/** The content words, with their base forms, of the definitions of a word's most frequent noun and verb senses. */
export const definitionWords = memoize((word: string): Set<string> => {
  const wn = wordnet();
  const out = new Set<string>();
  const forms = new Set([word.replace(/ /g, '_'), ...readings(word.replace(/ /g, '_'))]);
  for (const form of forms) {
    for (const pos of ['n', 'v'] as const) {
      for (const id of wn.senses(form, GLOSS_SENSES, pos)) {
        for (const w of wn.gloss(id).split(' ')) {
          if (w.length < 3 || L.STOPWORDS.has(w) || L.PREPOSITIONS.has(w)) continue;
          // every base form: a definition's "played" is play, whatever the word alone would be filed under
          for (const lemma of new Set([lemmatize(w), ...readings(w)])) if (!DEFINITION_FILLER.has(lemma) && lemma !== word) out.add(lemma);
        }
      }
    }
  }
  return out;
}, 20000);

/** `word`'s own definitions use `other` ("storm" ... "thunder"; "toy" ... "play"). */
export const definitionUses = (word: string, other: string): boolean => other.length >= 3 && !DEFINITION_FILLER.has(other) && definitionWords(word).has(other);

/** Either word's definitions use the other: they are about one thing. */
export const definedByEachOther = (a: string, b: string): boolean => a !== b && (definitionUses(a, b) || definitionUses(b, a));

/**
 * `word`'s definition says `other` or a word meaning the same: "pouch" is "a small ... container",
 * so a "little bag" is one (a vaguer word and the definition's own difference, said together).
 */
export const definitionSays = (word: string, other: string): boolean => saysMemo(`${word}|${other}`);
const saysMemo = memoize((key: string): boolean => {
  const [word = '', other = ''] = key.split('|');
  if (definitionUses(word, other)) return true;
  return other.length >= 3 && [...definitionWords(word)].some((d) => meaningOf(d, other) === 'same');
}, 20000);
