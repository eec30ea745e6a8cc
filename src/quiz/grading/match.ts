/**
 * Word-level matching between one expected token and what the child said: same concept
 * (exact or synonym), more specific ("raccoon" for "animal"), vaguer, another member of the
 * same group, or the same word misheard (sound key, spelling, or split in two: "butter fly").
 */
import type { Analysis, Token } from './analyze.js';
import { isMeaningful } from './analyze.js';
import { jaroWinkler, levenshteinRatio, metaphoneAlike, phoneticKey, sameLongCode, yodCoalesced } from './fuzzy.js';
import * as L from './lexicon.js';
import { lemmatize } from './morphology.js';
import { actionOfDoer, isDictionaryWord, meaningOf } from './meaning.js';
import { GRADING_THRESHOLDS, type GradingThresholds } from './thresholds.js';
import { memoize } from './memo.js';

export type MatchHow = 'exact' | 'synonym' | 'specific' | 'sound' | 'spelling' | 'joined';

export interface WordMatch {
  score: number;
  how: MatchHow;
  /** indices (in the user's tokens) used by this match */
  used: number[];
  said: string;
}

export type Relation =
  | { kind: 'match'; score: number; how: MatchHow }
  | { kind: 'broader' }
  | { kind: 'conflict' }
  | { kind: 'opposite' }
  | { kind: 'none' };

export function relate(e: Token, u: Token, t: GradingThresholds): Relation {
  if (e.kind === 'number' || u.kind === 'number') {
    if (e.kind === 'number' && u.kind === 'number') return e.concept === u.concept ? { kind: 'match', score: 1, how: 'exact' } : { kind: 'conflict' };
    return { kind: 'none' };
  }
  if (e.concept === u.concept) return { kind: 'match', score: 1, how: e.lemma === u.lemma ? 'exact' : 'synonym' };
  if (L.areOpposites(e.concept, u.concept)) return { kind: 'opposite' };
  if (L.slangMatches(e, u)) return { kind: 'match', score: 0.9, how: 'synonym' };
  // the doer said as the action ("drive the truck" for "truck driver", "to hold pencils" for "pencil holder")
  if (u.verb && actionOfDoer(e.lemma) === u.lemma) return { kind: 'match', score: 0.9, how: 'synonym' };
  if (L.isBroaderThan(e.concept, u.concept)) return { kind: 'match', score: 1, how: 'specific' };
  // A young animal named by its grown-up kind is not vaguer for a child ("a pig" for "the piglet").
  if (L.isYoungOf(e.concept, u.concept)) return { kind: 'match', score: 0.9, how: 'synonym' };
  if (L.isBroaderThan(u.concept, e.concept)) return { kind: 'broader' };
  const byWordnet = wordnetRelation(e, u);
  // one word of an expected noun phrase said alone ("a bear" for "bear cub") names it less precisely (a verb keeps its particle handling: "float around")
  if (!byWordnet && !u.verb && e.raw.includes(' ') && !u.raw.includes(' ') && e.raw.split(' ').some((w) => w === u.raw || lemmatize(w) === u.lemma)) return { kind: 'broader' };
  // the overlay's everyday groups ("space": earth, planet, moon) give way when WordNet knows one is a kind or the opposite of the other
  if (L.sameGroup(e.concept, u.concept)) return byWordnet && byWordnet.kind !== 'conflict' ? byWordnet : { kind: 'conflict' };
  if (byWordnet) return byWordnet;
  // the overlay's homophones are one sound even when both are words it files ("aunts" for "ants")
  if (L.areHomophones(e.lemma, u.lemma) || L.areHomophones(e.raw, u.raw)) return { kind: 'match', score: 0.95, how: 'sound' };
  // Two different words the lexicon files under a group ("kite" and "cat") are not a mishearing.
  if (L.isInGroup(e.concept) && L.isInGroup(u.concept)) return { kind: 'none' };
  // A real word the lexicon knows is not a misspelling of another ("shelf" is not "shell").
  const spelling = !L.isKnownWord(u.lemma) && !isDictionaryWord(u.lemma);
  const score = Math.max(soundAlike(e.raw.replace(/ /g, ''), u.raw.replace(/ /g, ''), t, false, spelling), soundAlike(e.lemma, u.lemma, t, false, spelling));
  if (score <= 0) return { kind: 'none' };
  return { kind: 'match', score, how: score >= 0.9 && phoneticKey(e.lemma) === phoneticKey(u.lemma) ? 'sound' : 'spelling' };
}

/** The overlay tables said nothing: WordNet's senses decide (see meaning.ts). */
function wordnetRelation(e: Token, u: Token): Relation | undefined {
  switch (meaningOf(meaningKey(e), meaningKey(u))) {
    case 'same':
      return { kind: 'match', score: 1, how: 'synonym' };
    case 'specific':
      return { kind: 'match', score: 1, how: 'specific' };
    case 'broader':
      return { kind: 'broader' };
    case 'sibling':
      return { kind: 'conflict' };
    case 'opposite':
      return { kind: 'opposite' };
    default:
      return undefined;
  }
}

/** A compound keeps its words for WordNet ("sleeping bag"); a word its lemma. */
const meaningKey = (tok: Token) => tok.phrase ?? tok.lemma;

/**
 * How alike two written words are as a recognizer's slip: a known homophone ("blew"/"blue"),
 * the same sound key with enough spelling in common ("biskit"/"biscuit"), or a close spelling
 * with the same first letter ("purpel"). A different vowel sound makes a different word when
 * little else differs ("soap" is not "soup", "Tim" is not "Tom", "ladder" is not "letter").
 * `split` is for words the recognizer cut in pieces ("brew no"), where vowels drift.
 */
export function soundAlike(a: string, b: string, t: GradingThresholds, split = false, spelling = true): number {
  if (a === b) return 1;
  if (t !== GRADING_THRESHOLDS) return soundAlikeUncached(a, b, t, split, spelling);
  return soundMemo(`${a}|${b}|${split ? 1 : 0}${spelling ? 1 : 0}`);
}

/** The same word pairs come back for every child: their (allocating) string distances are kept. */
const soundMemo = memoize((key: string): number => {
  const [a = '', b = '', flags = ''] = key.split('|');
  return soundAlikeUncached(a, b, GRADING_THRESHOLDS, flags[0] === '1', flags[1] === '1');
}, 50000);

function soundAlikeUncached(a: string, b: string, t: GradingThresholds, split: boolean, spelling: boolean): number {
  if (/\d/.test(a) || /\d/.test(b)) return 0;
  if (L.areHomophones(a, b) || respell(a) === respell(b)) return 0.95;

  const jw = jaroWinkler(a, b);
  const ratio = levenshteinRatio(a, b);
  const short = Math.min(a.length, b.length) <= 4;
  const sameVowel = vowelSound(a) === vowelSound(b);
  const vowelOk = split || (short ? sameVowel : sameVowel || ratio >= t.sound_vowel_free_ratio);
  const key = phoneticKey(a);
  const keyOk = key.length >= (split ? 3 : 2) && key === phoneticKey(b);
  // the same Double Metaphone code, and one of them is no dictionary word: a spelling of that sound
  // ("hunny", "reveera", "bow" for Bo); short words also keep their vowel ("Tim" is not "Tom")
  if (metaphoneAlike(a, b) && (!isDictionaryWord(a) || !isDictionaryWord(b) || sameLongCode(a, b)) && (!short || sameVowel)) return 0.9;
  // three consonant sounds in the same order around the same vowel sound are the same word spelt
  // another way, however different the letters ("wrecks" / "Rex")
  const spellingScore = keyOk && sameVowel && key.length >= 3 ? 1 : ratio;
  if (keyOk && vowelOk && spellingScore >= (short ? t.sound_min_ratio_short : t.sound_min_ratio)) return Math.max(0.9, jw);
  // pieces joined back must spell nearly the word ("snow angel" is not "snowman")
  if (spelling && !short && a[0] === b[0] && jw >= t.fuzzy_word && (!split || ratio >= t.sound_vowel_free_ratio)) return jw;
  return 0;
}

/** Vowel spellings of one sound ("bloo" / "blue" / "blew"); "ea" is left out, it is two sounds ("bread", "bead"). */
const VOWEL_SPELLINGS: Record<string, string> = { oo: 'uu', ue: 'uu', ew: 'uu' };

/**
 * The sound of a word's first vowel, as far as spelling tells: its vowel group ("soap" -> "oa",
 * "soup" -> "ou", a vowel "y" read as "i": "byke" -> "i"), one spelling per sound for the groups
 * above, and a single vowel before consonant + final "e" is long ("jake" is not "jack").
 */
function vowelSound(w: string): string | undefined {
  const m = /ew|[aeiou]+|(?<=[^aeiou])y/.exec(w);
  if (!m) return undefined;
  const v = m[0].replace('y', 'i');
  if (VOWEL_SPELLINGS[v]) return VOWEL_SPELLINGS[v];
  const rest = w.slice(m.index + m[0].length);
  return v.length === 1 && /^[^aeiouy]e$/.test(rest) ? `${v}_e` : v;
}

/** The word with its first vowel written by its sound: "bloo", "blue" and "blew" -> "bluu". */
function respell(w: string): string {
  return w.replace(/ew|[aeiou]+/, (v) => VOWEL_SPELLINGS[v] ?? v);
}

/** Best way the user's answer says expected token `e`, or undefined. */
export function bestMatch(e: Token, user: Analysis, t: GradingThresholds): WordMatch | undefined {
  let best: WordMatch | undefined;
  user.tokens.forEach((u, idx) => {
    if (!isMeaningful(u)) return;
    const r = relate(e, u, t);
    if (r.kind === 'match' && r.score >= t.word_match && (!best || r.score > best.score)) {
      best = { score: r.score, how: r.how, used: [idx], said: u.raw };
    }
  });
  if (best && best.score >= 1) return best;
  const joined = joinedMatch(e, user, t) ?? compoundMatch(e, user);
  if (joined && (!best || joined.score > best.score)) best = joined;
  return best;
}

/** A compound said in its parts, in any order: "a castle out of sand" for "sandcastle", "a doctor for your eyes" for "eye doctor". */
function compoundMatch(e: Token, user: Analysis): WordMatch | undefined {
  const word = e.raw;
  const find = (part: string) => user.tokens.findIndex((u) => isMeaningful(u) && (u.raw === part || u.lemma === part || u.lemma === lemmatize(part)));
  // a two-word compound said around other words: "a doctor for your eyes" for "eye doctor"
  const parts = word.split(' ');
  if (e.kind === 'content' && parts.length === 2) {
    const [head, tail] = parts.map(find) as [number, number];
    return head >= 0 && tail >= 0 && head !== tail ? { score: 0.9, how: 'joined', used: [head, tail], said: `${user.tokens[head]?.raw} ... ${user.tokens[tail]?.raw}` } : undefined;
  }
  if (e.kind !== 'content' || word.includes(' ') || word.length < 7) return undefined;
  for (let cut = 3; cut <= word.length - 3; cut++) {
    const head = find(word.slice(0, cut));
    const tail = find(word.slice(cut));
    if (head >= 0 && tail >= 0 && head !== tail) {
      return { score: 0.9, how: 'joined', used: [head, tail], said: `${user.tokens[head]?.raw} ... ${user.tokens[tail]?.raw}` };
    }
  }
  return undefined;
}

/** A word the recognizer split in two or three ("brew no" for "Bruno", "peek a chew"). */
function joinedMatch(e: Token, user: Analysis, t: GradingThresholds): WordMatch | undefined {
  if (e.kind === 'number') return undefined;
  const target = e.raw.replace(/ /g, '');
  if (target.length < 4) return undefined;
  const parts = e.raw.split(' ');
  let best: WordMatch | undefined;
  const toks = user.tokens;
  for (let i = 0; i < toks.length; i++) {
    for (let n = 2; n <= 3 && i + n <= toks.length; n++) {
      const window = toks.slice(i, i + n);
      if (window.some((w) => w.kind === 'separator') || !window.some((w) => w.kind === 'content' || w.kind === 'negation')) continue;
      // a phrase's own word with an article before it is that word alone ("a doctor" is not "eye doctor")
      if (parts.length > 1 && window.some((w) => parts.includes(w.raw)) && window.some((w) => w.kind === 'stop')) continue;
      const said = window.map((w) => w.raw.replace(/ /g, '')).join('');
      const coalesced = yodCoalesced(target);
      const score = Math.max(soundAlike(target, said, t, true), soundAlike(e.lemma, said, t, true), coalesced ? soundAlike(coalesced, said, t, true) : 0);
      if (score >= t.word_match && (!best || score > best.score)) {
        best = { score, how: 'joined', used: window.map((_, k) => i + k), said: window.map((w) => w.raw).join(' ') };
      }
    }
  }
  return best;
}
