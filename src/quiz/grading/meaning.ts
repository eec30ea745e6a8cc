/**
 * What two words have to do with each other, by WordNet: the same meaning (they share a sense:
 * "lady"/"woman"), one more general than the other (a hypernym: "bird" for "owl"), a different one
 * of the same kind (co-hyponyms close under one parent: "blue" for "red", "cat" for "dog") or
 * opposites (antonyms: "hot"/"cold", through an adjective's head: "freezing"/"hot").
 * Only a word's most frequent senses count, so a rare sense ("dog" as a verb, "red" as a
 * communist) does not make two everyday words related.
 */
import { memoize } from './memo.js';
import { morphy, readings } from './morphology.js';
import { wordnet, type Wordnet } from './wordnet.js';

export type MeaningRelation = 'same' | 'specific' | 'broader' | 'sibling' | 'opposite';

/** senses of each word looked at, per part of speech */
const SENSES = 3;
/** a co-hyponym's shared parent may be this many links up from each word ("cat" -> feline -> carnivore <- canine <- "dog") */
const SIBLING_DEPTH = 2;
/** hypernym links followed for "more general" ("owl" -> bird of prey -> bird ... -> animal) */
const HYPERNYM_DEPTH = 8;

const ancestorsMemo = new Map<number, Map<number, number>>();
function ancestorsOf(wn: Wordnet, id: number): Map<number, number> {
  let a = ancestorsMemo.get(id);
  if (!a) {
    a = wn.ancestors(id, HYPERNYM_DEPTH);
    ancestorsMemo.set(id, a);
  }
  return a;
}

function sensesOf(wn: Wordnet, word: string): number[] {
  const out = new Set<number>();
  for (const form of readings(word.replace(/ /g, '_'))) for (const id of wn.senses(form, SENSES)) out.add(id);
  if (word.includes(' ')) for (const id of wn.senses(word, SENSES)) out.add(id);
  return [...out];
}

const isAdjective = (wn: Wordnet, id: number) => wn.isPos(id, 'a');

/** An adjective satellite stands for its head too ("freezing" is a kind of "cold"). */
function withHeads(wn: Wordnet, ids: number[]): Set<number> {
  const out = new Set(ids);
  for (const id of ids) for (const s of wn.synset(id).similar) out.add(s);
  return out;
}

/** How `said` relates to `expected` ("broader": said is more general; "specific": said is a kind of expected). */
const relateMeaning = memoize((key: string): MeaningRelation | 'none' => {
  const [expected = '', said = ''] = key.split('|');
  if (expected === said) return 'same';
  const wn = wordnet();
  const e = sensesOf(wn, expected);
  const u = sensesOf(wn, said);
  if (e.length === 0 || u.length === 0) return 'none';
  const uSet = new Set(u);
  if (e.some((id) => uSet.has(id))) return 'same';
  // opposites among describing words only: opposite actions ("sit"/"stand") are different actions
  const eHeads = withHeads(wn, e.filter((id) => isAdjective(wn, id)));
  const uHeads = withHeads(wn, u.filter((id) => isAdjective(wn, id)));
  for (const id of eHeads) for (const a of wn.synset(id).antonyms) if (uHeads.has(a)) return 'opposite';
  // one "also see" step before the antonym: "warm" -> hot <-> "cold"
  for (const id of eHeads) for (const see of wn.synset(id).alsoSee) for (const a of wn.synset(see).antonyms) if (uHeads.has(a)) return 'opposite';
  for (const id of uHeads) for (const see of wn.synset(id).alsoSee) for (const a of wn.synset(see).antonyms) if (eHeads.has(a)) return 'opposite';
  // a satellite and its own head mean nearly the same ("huge" / "big")
  if (e.some((id) => wn.synset(id).similar.some((s) => uSet.has(s))) || u.some((id) => wn.synset(id).similar.some((s) => e.includes(s)))) return 'same';
  const eAnc = e.map((id) => ancestorsOf(wn, id));
  const uAnc = u.map((id) => ancestorsOf(wn, id));
  if (eAnc.some((a) => u.some((id) => a.has(id)))) return 'broader';
  if (uAnc.some((a) => e.some((id) => a.has(id)))) return 'specific';
  for (const ea of eAnc) {
    for (const ua of uAnc) {
      for (const [p, d] of ea) if (d <= SIBLING_DEPTH && (ua.get(p) ?? Infinity) <= SIBLING_DEPTH) return 'sibling';
    }
  }
  return 'none';
}, 20000);

export function meaningOf(expected: string, said: string): MeaningRelation | undefined {
  const r = relateMeaning(`${expected}|${said}`);
  return r === 'none' ? undefined : r;
}

/** WordNet knows the word (in any of its forms). */
export const isDictionaryWord = (word: string): boolean => readings(word).some((f) => wordnet().has(f));

/** A describing word rather than a thing: WordNet has as many tagged adjective senses of it as noun senses ("brown", "polar"). */
export function isMainlyAdjective(word: string): boolean {
  const wn = wordnet();
  return wn.has(word, 'a') && wn.tagCount(word, 'a') >= wn.tagCount(word, 'n');
}

/** The compound is a kind of its last word ("brown bear" is a bear; "hot chocolate" is no chocolate but a drink). */
export function isKindOfHead(compound: string): boolean {
  const wn = wordnet();
  const head = new Set(sensesOf(wn, compound.split(' ').at(-1) as string));
  return wn.senses(compound, SENSES, 'n').some((id) => [...ancestorsOf(wn, id)].some(([a, d]) => d <= 2 && head.has(a)));
}

/** A multi-word noun WordNet lists ("sleeping bag", "maple syrup"). */
export const isCompoundNoun = (words: string): boolean => words.includes(' ') && wordnet().has(words, 'n');

/** The word's first noun sense is a kind of the category's ("brother" is a person, "teal" a color; "wolf" is not a person). */
export const isKindOf = (word: string, category: string): boolean => isKindMemo(`${word}|${category}`);
const isKindMemo = memoize((key: string): boolean => {
  const [word = '', category = ''] = key.split('|');
  const wn = wordnet();
  const target = wn.senses(category, 1, 'n')[0];
  if (target === undefined) return false;
  const first = [word, morphy(word, 'n')].map((f) => (f ? wn.senses(f, 1, 'n')[0] : undefined)).find((id) => id !== undefined);
  return first !== undefined && (first === target || ancestorsOf(wn, first).has(target));
}, 20000);

/** A stretch of time WordNet files directly under "time period" in one of the word's first senses ("morning", "evening", "night"), not a season or a weekday. */
export const isTimePeriod = (word: string): boolean => timePeriodMemo(word);
const timePeriodMemo = memoize((word: string): boolean => {
  const wn = wordnet();
  const period = wn.senses('time period', 1, 'n')[0];
  return period !== undefined && wn.senses(word, SENSES, 'n').some((id) => wn.synset(id).hypernyms.includes(period));
}, 5000);

/**
 * The noun names what the verb makes or does, by WordNet's derivational links between their
 * first senses ("song" of sing, "dance" of dance, "dream" of dream, "drawing" of draw).
 */
export const isNounOfVerb = (noun: string, verb: string): boolean => nounOfVerbMemo(`${noun}|${verb}`);
const nounOfVerbMemo = memoize((key: string): boolean => {
  const [noun = '', verb = ''] = key.split('|');
  const wn = wordnet();
  const nouns = new Set(wn.senses(noun, SENSES, 'n'));
  return wn.senses(verb, SENSES, 'v').some((id) => wn.synset(id).derivations.some((d) => nouns.has(d)));
}, 5000);

/**
 * One of the said word's first senses is also named by a compound of the expected word
 * ("cavities": caries, tooth decay -> "tooth"; "mane": horse's mane -> "horse"): the child named
 * something of that thing.
 */
export const namesPartOf = (said: string, expected: string): boolean => namesPartMemo(`${said}|${expected}`);
const namesPartMemo = memoize((key: string): boolean => {
  const [said = '', expected = ''] = key.split('|');
  const wn = wordnet();
  return sensesOf(wn, said).some((id) => wn.synset(id).words.some((w) => w.includes(' ') && w.split(' ').some((part) => part === expected || morphy(part, 'n') === expected)));
}, 5000);

/**
 * The noun names what comes of the verb, or its kind, by WordNet's derivational links from the
 * verb's first senses ("wind" for "blow": blow -> gust, a kind of wind; "song" for "sing").
 */
export const isResultOfVerb = (noun: string, verb: string): boolean => resultMemo(`${noun}|${verb}`);
const resultMemo = memoize((key: string): boolean => {
  const [noun = '', verb = ''] = key.split('|');
  const wn = wordnet();
  const nouns = new Set(wn.senses(noun, SENSES, 'n'));
  if (nouns.size === 0) return false;
  return wn.senses(verb, SENSES, 'v').some((id) =>
    wn.synset(id).derivations.some((d) => wn.isPos(d, 'n') && (nouns.has(d) || wn.synset(d).hypernyms.some((h) => nouns.has(h)))),
  );
}, 5000);

/** Parents with more children than this are too broad for their children to be near answers. */
const MAX_KIN = 40;
const singleWords = (words: string[]) => words.filter((w) => /^[a-z]+( [a-z]+)?$/.test(w));

/**
 * A word's neighbours in WordNet, for the local recognizer's priors: the words of its most frequent
 * sense (same), that sense's hypernyms as far as the grader looks (broader), and the other children of its
 * direct parents (kin: "blue" for red).
 */
export function wordnetNeighbours(word: string): { same: string[]; broader: string[]; kin: string[] } {
  const wn = wordnet();
  // the most frequent sense of the first part of speech WordNet has for it (a noun before a verb)
  const senses = wn.senses(word.replace(/ /g, '_'), 1).slice(0, 1);
  const same = new Set<string>();
  const broader = new Set<string>();
  const kin = new Set<string>();
  for (const id of senses) {
    singleWords(wn.synset(id).words).forEach((w) => same.add(w));
    for (const [a] of ancestorsOf(wn, id)) singleWords(wn.synset(a).words).forEach((w) => broader.add(w));
    for (const parent of wn.synset(id).hypernyms) {
      const children = wn.synset(parent).hyponyms;
      if (children.length > MAX_KIN) continue;
      for (const c of children) if (c !== id) singleWords(wn.synset(c).words).forEach((w) => kin.add(w));
    }
  }
  return { same: [...same], broader: [...broader], kin: [...kin] };
}

/**
 * The action a doer noun is named after, when WordNet has both ("driver" -> drive, "holder" ->
 * hold, "runner" -> run, "actor" -> act): "he wants to drive the truck" says "truck driver".
 */
export const actionOfDoer = memoize((noun: string): string | undefined => {
  const m = /^(.*?)(er|or)$/.exec(noun);
  if (!m || !m[1] || m[1].length < 2) return undefined;
  const wn = wordnet();
  if (!wn.has(noun, 'n')) return undefined;
  const stem = m[1];
  const undoubled = /([b-df-hj-np-tv-z])\1$/.test(stem) ? stem.slice(0, -1) : undefined;
  return [stem, `${stem}e`, undoubled].find((v): v is string => !!v && wn.has(v, 'v'));
}, 5000);
