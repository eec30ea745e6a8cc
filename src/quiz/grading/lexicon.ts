/**
 * The lexicon index: word lists and meaning tables lemmatized once at load, with the
 * questions the grader asks of them (which concept is a word, is one concept broader than
 * another, do two words belong to the same group).
 */
import type { Token } from './analyze.js';
import { lemmatize } from './morphology.js';
import * as W from './lexicon-words.js';
import { isKindOf } from './meaning.js';
import { ANTONYMS, CONTAINS, HOMOPHONES, SLANG, SYNONYMS, TAXONOMY } from './lexicon-meaning.js';

/** Inside a phrase these may be skipped: "blew it away" is the phrase "blow away". */
export const PHRASE_SKIPPABLE = new Set(['a', 'an', 'the', 'it', 'them', 'him', 'her', 'his', 'their', 'my', 'your', 'its', 'some']);

const set = (words: string[]) => new Set(words);
export const FILLERS = set(W.FILLERS);
export const STOPWORDS = set(W.STOPWORDS);
export const PREPOSITIONS = set(W.PREPOSITIONS);
export const NEGATIONS = set(W.NEGATIONS);
export const NEGATION_BOUNDARY = set(W.NEGATION_BOUNDARY);
export const VAGUE = set(W.VAGUE);
export const TITLES = set(W.TITLES);
export const MODIFIERS = set(W.MODIFIERS);
export const YES_WORDS = set(W.YES_WORDS);
export const NO_WORDS = set(W.NO_WORDS);
export const DONT_KNOW = W.DONT_KNOW;
export const WEAK = new Set([...W.WEAK, ...W.WEAK.map(lemmatize)]);
const VERBS = new Set(W.VERBS.map(lemmatize));

const phraseKey = (phrase: string) =>
  phrase
    .split(' ')
    .filter((w) => !PHRASE_SKIPPABLE.has(w))
    .map(lemmatize)
    .join(' ');

const conceptByLemma = new Map<string, string>();
/** concept -> the surface forms the tables list for it ("rabbit" -> rabbit, bunny, hare, bunny rabbit) */
const formsByConcept = new Map<string, Set<string>>();
const addSurface = (concept: string, form: string) => {
  if (!formsByConcept.has(concept)) formsByConcept.set(concept, new Set());
  formsByConcept.get(concept)?.add(form);
};
/** lemmatized multi-word phrase -> concept */
export const PHRASES = new Map<string, string>();
/** longest phrase length in words, to bound the look-ahead */
export let MAX_PHRASE_WORDS = 1;

function addForm(form: string, concept: string): void {
  addSurface(concept, form);
  if (form.includes(' ')) {
    const key = phraseKey(form);
    PHRASES.set(key, concept);
    MAX_PHRASE_WORDS = Math.max(MAX_PHRASE_WORDS, key.split(' ').length);
    conceptByLemma.set(lemmatize(form.replace(/ /g, '')), concept);
  } else {
    conceptByLemma.set(lemmatize(form), concept);
  }
}

for (const group of SYNONYMS) {
  const concept = (group[0] as string).replace(/ /g, '');
  for (const form of group) addForm(form, concept);
}

export function conceptOf(lemma: string): string {
  return conceptByLemma.get(lemma) ?? lemma;
}

const rawConcept = (word: string) => (word.includes(' ') ? word.replace(/ /g, '') : conceptOf(lemmatize(word)));

const parents = new Map<string, Set<string>>();
const childrenOf = new Map<string, Set<string>>();
for (const [parent, children] of Object.entries(TAXONOMY)) {
  const p = rawConcept(parent);
  addSurface(p, parent);
  for (const child of children) {
    if (child.includes(' ')) addForm(child, child.replace(/ /g, ''));
    const c = rawConcept(child);
    addSurface(c, child);
    if (!parents.has(c)) parents.set(c, new Set());
    parents.get(c)?.add(p);
    if (!childrenOf.has(p)) childrenOf.set(p, new Set());
    childrenOf.get(p)?.add(c);
  }
}

const ancestorCache = new Map<string, Set<string>>();
export function ancestors(concept: string): Set<string> {
  const cached = ancestorCache.get(concept);
  if (cached) return cached;
  const out = new Set<string>();
  const stack = [...(parents.get(concept) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop() as string;
    if (out.has(next)) continue;
    out.add(next);
    stack.push(...(parents.get(next) ?? []));
  }
  ancestorCache.set(concept, out);
  return out;
}

const containers = new Map<string, Set<string>>();
for (const [broad, inside] of Object.entries(CONTAINS)) {
  const b = rawConcept(broad);
  addSurface(b, broad);
  for (const place of inside) {
    if (place.includes(' ')) addForm(place, place.replace(/ /g, ''));
    const p = rawConcept(place);
    addSurface(p, place);
    if (!containers.has(b)) containers.set(b, new Set());
    containers.get(b)?.add(p);
  }
}

/** "pig" for "piglet" or "puppy" for "dog": a young animal and its grown-up kind. */
export function isYoungOf(young: string, adult: string): boolean {
  const direct = parents.get(young);
  return direct !== undefined && direct.has('baby') && direct.has(adult);
}

/** `broad` is a vaguer answer for `specific`: an ancestor in the taxonomy or a place holding it. */
export function isBroaderThan(broad: string, specific: string): boolean {
  if (broad === specific) return false;
  if (ancestors(specific).has(broad)) return true;
  const inside = containers.get(broad);
  if (!inside) return false;
  if (inside.has(specific)) return true;
  for (const a of ancestors(specific)) if (inside.has(a) && a !== 'animal' && a !== 'person') return true;
  return false;
}

/** Two different members of one group ("bees" for "ants", "blue" for "red", "sun" for "moon"). */
export function sameGroup(a: string, b: string): boolean {
  if (a === b) return false;
  const pa = ancestors(a);
  const pb = ancestors(b);
  if (pa.has(b) || pb.has(a)) return false;
  for (const p of pa) if (pb.has(p)) return true;
  return false;
}

/** The word is filed under some group of the taxonomy. */
export const isInGroup = (concept: string) => ancestors(concept).size > 0;

export const isColor = (concept: string) => ancestors(concept).has('color') || isKindOf(concept, 'color');

const KNOWN = new Set<string>([...conceptByLemma.keys(), ...conceptByLemma.values(), ...parents.keys(), ...containers.keys(), ...VERBS,
  ...[...W.STOPWORDS, ...W.PREPOSITIONS, ...W.FILLERS, ...W.MODIFIERS, ...W.VAGUE, ...W.PERSON_WORDS].map(lemmatize)]);
for (const key of Object.keys(TAXONOMY)) KNOWN.add(rawConcept(key));

/** A word the lexicon knows; unknown capitalized words in an expected answer are names. */
export const isKnownWord = (lemma: string) => KNOWN.has(lemma) || KNOWN.has(conceptOf(lemma));
const homophoneOf = new Map<string, number>();
HOMOPHONES.forEach((group, i) => group.forEach((w) => homophoneOf.set(w, i)));
/** Words a recognizer writes for one another because they sound the same ("blew" for "blue"). */
export const areHomophones = (a: string, b: string) => homophoneOf.has(a) && homophoneOf.get(a) === homophoneOf.get(b);

const opposites = new Set(ANTONYMS.flatMap(([a, b]) => {
  const [ca, cb] = [conceptOf(lemmatize(a)), conceptOf(lemmatize(b))];
  return [`${ca}|${cb}`, `${cb}|${ca}`];
}));
/** "lost" for "found", "cold" for "hot". */
export const areOpposites = (a: string, b: string) => opposites.has(`${a}|${b}`);

export const isVerbLemma = (lemma: string) => VERBS.has(lemma);
const PERSON_CONCEPTS = new Set(W.PERSON_WORDS.map((w) => conceptOf(lemmatize(w))));
/** "a boy", "the people", "someone": a word for any person, naming nobody in particular. */
export const isGenericPerson = (concept: string) => PERSON_CONCEPTS.has(concept);
/** "the girl", "her brother", "the pirate": a person, but not a name. */
export const isPersonWord = (concept: string) => PERSON_CONCEPTS.has(concept) || ancestors(concept).has('person') || isKindOf(concept, 'person');

/** The surface forms the tables list for a concept ("rabbit" -> rabbit, bunny, hare, bunny rabbit); the concept itself when they list none. */
export const formsOf = (concept: string): string[] => [...(formsByConcept.get(concept) ?? [concept])];
/** The groups a concept is filed under directly ("owl" -> bird). */
export const parentsOf = (concept: string): string[] => [...(parents.get(concept) ?? [])];
/** The members filed directly under a group ("bird" -> owl, parrot, duck, ...). */
export const membersOf = (group: string): string[] => [...(childrenOf.get(group) ?? [])];
/** The broad places that hold a place ("bed" -> house). */
export const placesHolding = (concept: string): string[] => [...containers].filter(([, inside]) => inside.has(concept)).map(([broad]) => broad);
/** The concepts the tables name as a concept's opposite ("hot" -> cold). */
export const oppositesOf = (concept: string): string[] =>
  [...opposites].filter((pair) => pair.startsWith(`${concept}|`)).map((pair) => pair.slice(concept.length + 1));

/** Praise slang said for an everyday word, or the reverse ("awesome" for "cool"): the slang's extra meaning is the other word's concept. */
export const slangMatches = (a: Token, b: Token): boolean =>
  (Object.hasOwn(SLANG, a.lemma) && SLANG[a.lemma] === b.concept) || (Object.hasOwn(SLANG, b.lemma) && SLANG[b.lemma] === a.concept) ||
  (Object.hasOwn(SLANG, a.lemma) && Object.hasOwn(SLANG, b.lemma) && SLANG[a.lemma] === SLANG[b.lemma]);
