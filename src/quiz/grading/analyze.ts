/**
 * Turns a text (expected answer, child's answer or question) into classified tokens:
 * phrases joined into one concept ("baby pig" -> piglet, "no more" -> runout), function words,
 * fillers, negations, numbers and content words with their lemma, concept and weight.
 */
import { normalizeText, wordsToNumbers } from './normalize.js';
import { lemmatize, looksInflectedVerb } from './morphology.js';
import * as L from './lexicon.js';
import { isCompoundNoun, isKindOfHead, isMainlyAdjective } from './meaning.js';

export type TokenKind =
  | 'content'
  | 'number'
  | 'negation'
  | 'prep'
  | 'stop'
  | 'filler'
  | 'weak'
  | 'vague'
  | 'title'
  | 'modifier'
  | 'separator';

export interface Token {
  /** surface words (a phrase keeps its spaces) */
  raw: string;
  lemma: string;
  concept: string;
  kind: TokenKind;
  /** share of the answer this token carries when it is expected */
  weight: number;
  verb: boolean;
  /** an unknown capitalized word (or any unknown word when a name is asked for) */
  name: boolean;
  /** a compound WordNet knows, in its words ("sleeping bag"): what meaning is looked up by */
  phrase?: string;
  /** index range in `words` */
  start: number;
  end: number;
}

export interface Analysis {
  normalized: string;
  words: string[];
  tokens: Token[];
}

export interface AnalyzeOptions {
  /** a count is expected: number words and numbers weigh fully */
  numeric?: boolean;
  /** read number homophones ("too", "for", "ate") as digits: the child's answer only */
  homophones?: boolean;
  /** treat unknown words as names (the question asks who / what name) */
  namesAsked?: boolean;
}

const WEIGHTS: Partial<Record<TokenKind, number>> = { content: 1, number: 1, modifier: 0.4 };
/** Outside a counting question a number only qualifies a noun ("the three little pigs"). */
const NUMBER_AS_MODIFIER = 0.4;

export function analyze(text: string, opts: AnalyzeOptions = {}): Analysis {
  const normalized = normalizeText(text);
  const words = normalized === '' ? [] : wordsToNumbers(normalized.split(' '), opts.numeric ?? false, opts.homophones ?? false);
  const capitalized = new Set((text.match(/\b[A-Z][a-zA-Z]+/g) ?? []).map((w) => w.toLowerCase()));
  const tokens: Token[] = [];
  let i = 0;
  while (i < words.length) {
    const phrase = matchPhrase(words, i);
    if (phrase) {
      tokens.push(makeToken(phrase.raw, phrase.concept, 'content', i, phrase.end, phrase.verb));
      i = phrase.end + 1;
      continue;
    }
    const compound = matchCompound(words, i);
    if (compound) {
      const concept = L.conceptOf(compound.replace(/ /g, ''));
      const end = i + compound.split(' ').length - 1;
      tokens.push({ ...makeToken(words.slice(i, end + 1).join(' '), concept, 'content', i, end, false), lemma: compound.replace(/ /g, ''), phrase: compound });
      i = end + 1;
      continue;
    }
    const w = words[i] as string;
    tokens.push(classify(w, words, i, capitalized, opts));
    i++;
  }
  return { normalized: words.join(' '), words, tokens };
}

function matchPhrase(words: string[], start: number): { raw: string; concept: string; end: number; verb: boolean } | undefined {
  const first = words[start] as string;
  if (L.PHRASE_SKIPPABLE.has(first) || first === ',') return undefined;
  const kept: { lemma: string; index: number }[] = [];
  for (let j = start; j < words.length && kept.length < L.MAX_PHRASE_WORDS; j++) {
    const w = words[j] as string;
    if (w === ',') break;
    if (j > start && L.PHRASE_SKIPPABLE.has(w)) continue;
    kept.push({ lemma: lemmatize(w), index: j });
  }
  for (let n = kept.length; n >= 2; n--) {
    const key = kept
      .slice(0, n)
      .map((k) => k.lemma)
      .join(' ');
    const concept = L.PHRASES.get(key);
    if (concept) {
      const end = (kept[n - 1] as { index: number }).index;
      const parts = words.slice(start, end + 1);
      const verb = parts.some((w) => L.isVerbLemma(lemmatize(w)) || looksInflectedVerb(w));
      return { raw: parts.join(' '), concept, end, verb };
    }
  }
  return undefined;
}

/** Words that never start or end a compound ("the", "in", "very"): only content words join. */
const joinable = (w: string) =>
  /^[a-z]+$/.test(w) && !L.STOPWORDS.has(w) && !L.PREPOSITIONS.has(w) && !L.FILLERS.has(w) && !L.NEGATIONS.has(w) && !L.WEAK.has(w) && !L.VAGUE.has(w);

/**
 * A noun compound WordNet lists, 3 or 2 words with the last one lemmatized: "sleeping bags" ->
 * sleeping bag, "maple syrup", "lily pad" (so "lilypad" said as one word is the same concept).
 */
function matchCompound(words: string[], start: number): string | undefined {
  for (let n = 3; n >= 2; n--) {
    const parts = words.slice(start, start + n);
    // "big brother", "old lady": a size or age word stays a describing word, which weighs little;
    if (parts.length < n || !parts.every(joinable) || L.MODIFIERS.has(parts[0] as string)) continue;
    const last = parts[n - 1] as string;
    for (const head of new Set([last, lemmatize(last)])) {
      const candidate = [...parts.slice(0, -1), head].join(' ');
      // a colour or other describing word before a kind of the last word too ("brown bear" is a bear
      // that is brown, to a child); "hot chocolate" is a drink of its own
      if (isCompoundNoun(candidate) && !(isMainlyAdjective(parts[0] as string) && isKindOfHead(candidate))) return candidate;
    }
  }
  return undefined;
}

function classify(w: string, words: string[], i: number, capitalized: Set<string>, opts: AnalyzeOptions): Token {
  const lemma = lemmatize(w);
  const token = (kind: TokenKind, concept = L.conceptOf(lemma), verb = false, name = false) =>
    makeToken(w, concept, kind, i, i, verb, name, lemma);
  if (w === ',') return token('separator', ',');
  if (/^\d+$/.test(w)) return { ...token('number', w), weight: opts.numeric ? 1 : NUMBER_AS_MODIFIER };
  if (L.FILLERS.has(w)) return token('filler');
  if (L.NEGATIONS.has(w)) return token('negation', 'not');
  if (L.STOPWORDS.has(w)) return token('stop');
  if (L.PREPOSITIONS.has(w)) return token('prep');
  if (L.WEAK.has(w) || L.WEAK.has(lemma)) return token('weak');
  if (L.VAGUE.has(w)) return token('vague');
  const next = words[i + 1];
  if (L.TITLES.has(w) && next !== undefined && isNameLike(next)) return token('title');
  if (L.MODIFIERS.has(w)) return token('modifier');
  const known = L.isKnownWord(lemma);
  const asked = opts.namesAsked ?? false;
  const name = !known && (capitalized.has(w) || asked);
  const verb = !name && (L.isVerbLemma(lemma) || looksInflectedVerb(w));
  return token('content', L.conceptOf(lemma), verb, name);
}

function isNameLike(word: string): boolean {
  if (/^\d+$/.test(word) || word === ',') return false;
  const lemma = lemmatize(word);
  return !L.isKnownWord(lemma) && !L.STOPWORDS.has(word) && !L.PREPOSITIONS.has(word);
}

function makeToken(raw: string, concept: string, kind: TokenKind, start: number, end: number, verb: boolean, name = false, lemma?: string): Token {
  return {
    raw,
    lemma: lemma ?? raw.replace(/ /g, ''),
    concept,
    kind,
    weight: WEIGHTS[kind] ?? 0,
    verb,
    name,
    start,
    end,
  };
}

/** Tokens that carry meaning: content words, numbers and size modifiers. */
export const isMeaningful = (t: Token) => t.kind === 'content' || t.kind === 'number' || t.kind === 'modifier';
