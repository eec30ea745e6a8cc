/**
 * Scoring an expected answer against what the child said: the expected answer is cut into
 * items ("pink and purple", "sad because she lost her teddy"), each item's meaning words are
 * looked for in the answer, and the answer's own words are sorted into used, extra,
 * vaguer-than-expected and contradicting.
 */
import { isMeaningful, type Analysis, type Token } from './analyze.js';
import { bestMatch, relate, type WordMatch } from './match.js';
import * as L from './lexicon.js';
import { definedByEachOther, definitionSays } from './gloss.js';
import { isMainlyAdjective, isNounOfVerb, isResultOfVerb } from './meaning.js';
import type { GradingThresholds } from './thresholds.js';

const ITEM_SEPARATORS = new Set([',', 'and', 'plus', 'because', 'or', 'then', 'also']);

export interface Items {
  items: Token[][];
  /** "a cat or a dog": any one item is enough */
  alternatives: boolean;
}

export function splitItems(tokens: Token[]): Items {
  const items: Token[][] = [[]];
  let alternatives = false;
  for (const tok of tokens) {
    if (ITEM_SEPARATORS.has(tok.raw) && (tok.kind === 'stop' || tok.kind === 'separator' || tok.kind === 'filler')) {
      if (tok.raw === 'or') alternatives = true;
      items.push([]);
      continue;
    }
    if (isMeaningful(tok)) items[items.length - 1]?.push(tok);
  }
  return { items: items.filter((it) => it.length > 0), alternatives };
}

export interface ItemScore {
  coverage: number;
  /** some full-weight word (not only a size word) was said */
  hasCore: boolean;
  missing: Token[];
  /** an expected action (verb) the child did not say */
  missingVerb: boolean;
  /** the item's last noun ("bear" in "a big brown bear") was said: its words before it only describe it */
  headSaid: boolean;
  matches: { expected: Token; match: WordMatch }[];
}

export function scoreItem(item: Token[], user: Analysis, questionConcepts: Set<string>, t: GradingThresholds): ItemScore {
  let informative = item.filter((tok) => !questionConcepts.has(tok.concept) && tok.weight > 0);
  if (informative.length === 0) informative = item.filter((tok) => tok.weight > 0);
  if (informative.length === 0) informative = item.map((tok) => ({ ...tok, weight: 1 }));
  let total = 0;
  let got = 0;
  let hasCore = false;
  const missing: Token[] = [];
  const matches: ItemScore['matches'] = [];
  for (const e of informative) {
    total += e.weight;
    const m = bestMatch(e, user, t);
    if (m) {
      got += e.weight * m.score;
      if (e.weight >= 1) hasCore = true;
      matches.push({ expected: e, match: m });
    } else {
      missing.push(e);
    }
  }
  for (const cognate of cognateObjects(missing, matches)) {
    // "they were singing" for "sang songs": the verb's own noun adds nothing the verb does not say
    missing.splice(missing.indexOf(cognate.expected), 1);
    got += cognate.expected.weight * cognate.match.score;
    matches.push(cognate);
  }
  for (const use of thingsByUse(missing, user)) {
    // "something to eat" for "food": a placeholder and what it is for names the thing made for that
    missing.splice(missing.indexOf(use.expected), 1);
    got += use.expected.weight * use.match.score;
    if (use.expected.weight >= 1) hasCore = true;
    matches.push(use);
  }
  for (const defined of genusAndDifference(missing, user, questionConcepts, t)) {
    // "little bags" for "pouches" (a small container ...): the vaguer word with what sets the thing apart
    missing.splice(missing.indexOf(defined.expected), 1);
    got += defined.expected.weight * defined.match.score;
    if (defined.expected.weight >= 1) hasCore = true;
    matches.push(defined);
  }
  for (const defined of definedInPassing(missing, matches, user, questionConcepts, t)) {
    // "afraid of the thunder" for "scared of the storm": the said word is in the missing one's definition
    missing.splice(missing.indexOf(defined.expected), 1);
    got += defined.expected.weight * defined.match.score;
    matches.push(defined);
  }
  const subject = pronounSubject(informative, missing, matches, user);
  if (subject) {
    // "it was super heavy" for "the pumpkin was too heavy": the pronoun stands for the named subject
    missing.splice(missing.indexOf(subject.expected), 1);
    got += subject.expected.weight * t.word_match;
    matches.push({ expected: subject.expected, match: { score: t.word_match, how: 'synonym', used: [], said: subject.said } });
  }
  const head = [...informative].reverse().find((e) => !e.verb && e.kind === 'content' && e.weight >= 1);
  return {
    headSaid: head !== undefined && matches.some((m) => m.expected === head),
    coverage: total > 0 ? got / total : 0,
    hasCore,
    missing,
    // "the wind" for "the wind blew it away" misses what happened; "the grapes" for "to eat the
    // grapes" names what was wanted: only an action after a word the child said is missing.
    missingVerb: missing.some((e) => e.verb && e.weight >= 1 && matches.some((m) => m.expected.start < e.start)),
    matches,
  };
}

/** Missing nouns that name what a said verb of the item makes ("songs" of "sang", "a dance" of "danced"), as matched through that verb. */
function cognateObjects(missing: Token[], matches: ItemScore['matches']): ItemScore['matches'] {
  const out: ItemScore['matches'] = [];
  for (const e of missing) {
    if (e.verb || e.kind !== 'content' || e.name) continue;
    const via = matches.find((m) => m.expected.verb && m.expected.start < e.start && isNounOfVerb(e.lemma, m.expected.lemma));
    if (via) out.push({ expected: e, match: { ...via.match, how: 'synonym' } });
  }
  return out;
}

/**
 * Missing nouns the child named by their use: a placeholder, "to" and a verb whose WordNet
 * derivation is that noun or a kind of it ("something to eat": eat -> feed, a kind of food).
 */
function thingsByUse(missing: Token[], user: Analysis): ItemScore['matches'] {
  const out: ItemScore['matches'] = [];
  const toks = user.tokens;
  for (let i = 1; i + 1 < toks.length; i++) {
    const verb = toks[i + 1] as Token;
    if (toks[i]?.raw !== 'to' || verb.kind !== 'content') continue;
    // the placeholder may carry a describing word or two before "to" ("something new to sing")
    const p = toks.slice(Math.max(0, i - 3), i).findIndex((tok) => tok.kind === 'vague');
    if (p < 0) continue;
    const at = Math.max(0, i - 3) + p;
    const e = missing.find((m) => m.kind === 'content' && !m.verb && !m.name && (isResultOfVerb(m.lemma, verb.lemma) || isNounOfVerb(m.lemma, verb.lemma)));
    if (e && !out.some((o) => o.expected === e)) out.push({ expected: e, match: { score: 0.9, how: 'synonym', used: [at, i + 1], said: `${(toks[at] as Token).raw} to ${verb.raw}` } });
  }
  return out;
}

/**
 * Missing words of an item whose other words the child said, named by a word their WordNet
 * definition uses, or whose own definition uses them ("thunder" for "storm": "... precipitation and
 * thunder and lightning"). Only beside a said expected word: alone, such a word is about the thing,
 * not the thing (the ladder's last step makes it almost). A word vaguer than the missing one keeps
 * its own meaning; one WordNet files beside it ("thunder" and "storm" are both weather) is no rival
 * when one's definition names the other.
 */
function definedInPassing(missing: Token[], matches: ItemScore['matches'], user: Analysis, questionConcepts: Set<string>, t: GradingThresholds): ItemScore['matches'] {
  if (!matches.some((m) => m.expected.weight >= 1)) return [];
  const used = new Set(matches.flatMap((m) => m.match.used));
  const out: ItemScore['matches'] = [];
  for (const e of missing) {
    if (e.kind !== 'content' || e.name) continue;
    const idx = user.tokens.findIndex((u, i) => u.kind === 'content' && !used.has(i) && !questionConcepts.has(u.concept) && ['none', 'conflict'].includes(relate(e, u, t).kind) && definedByEachOther(e.lemma, u.lemma));
    if (idx < 0) continue;
    used.add(idx);
    out.push({ expected: e, match: { score: t.word_match, how: 'synonym', used: [idx], said: (user.tokens[idx] as Token).raw } });
  }
  return out;
}

/**
 * A missing thing said as a vaguer word with a describing word its definition uses (or one
 * meaning the same): "little bags" for "pouches" ("a small or medium size container"). The
 * vaguer word alone ("a bag") stays vaguer; a describing word its definition does not say stays
 * another thing of that kind.
 */
function genusAndDifference(missing: Token[], user: Analysis, questionConcepts: Set<string>, t: GradingThresholds): ItemScore['matches'] {
  const out: ItemScore['matches'] = [];
  const toks = user.tokens;
  const describing = (u: Token) => !questionConcepts.has(u.concept) && (u.kind === 'modifier' || (u.kind === 'content' && !u.verb && isMainlyAdjective(u.lemma)));
  for (const e of missing) {
    if (e.kind !== 'content' || e.verb || e.name) continue;
    const genus = toks.findIndex((u) => u.kind === 'content' && !u.verb && relate(e, u, t).kind === 'broader');
    if (genus < 0) continue;
    const diff = toks.findIndex((u, i) => i !== genus && describing(u) && definitionSays(e.lemma, u.lemma));
    if (diff < 0) continue;
    out.push({ expected: e, match: { score: 0.9, how: 'synonym', used: [diff, genus], said: `${(toks[diff] as Token).raw} ${(toks[genus] as Token).raw}` } });
  }
  return out;
}

const SUBJECT_PRONOUNS = new Set(['it', 'they', 'he', 'she']);

/**
 * The item opens with a thing or person (not an action) the child did not name, the child's
 * answer opens its clause with a pronoun, and the child said something the item says after
 * that subject: the pronoun is that subject ("it was heavy" for "the pumpkin was heavy").
 */
function pronounSubject(item: Token[], missing: Token[], matches: ItemScore['matches'], user: Analysis): { expected: Token; said: string } | undefined {
  const first = item[0];
  if (!first || first.verb || first.kind !== 'content' || !missing.includes(first) || item.length < 2) return undefined;
  const later = matches.filter((m) => m.expected.start > first.start && m.match.used.length > 0);
  if (later.length === 0) return undefined;
  const firstUsed = Math.min(...later.flatMap((m) => m.match.used));
  const pronoun = user.tokens.findIndex((tok) => SUBJECT_PRONOUNS.has(tok.raw));
  return pronoun >= 0 && pronoun < firstUsed ? { expected: first, said: (user.tokens[pronoun] as Token).raw } : undefined;
}

export interface Leftovers {
  /** meaningful words the child said that match nothing expected and are not from the question */
  extras: Token[];
  /** a word vaguer than an expected one ("animal" for "piglet") */
  broader?: { said: Token; expected: Token };
  /** another member of an expected word's group ("blue" for "red") */
  conflict?: { said: Token; expected: Token };
  /** the opposite of an expected word ("lost" for "found") */
  opposite?: { said: Token; expected: Token };
  /** a second colour/number besides a matched one ("red and blue" for "red") */
  hedge?: { said: Token; expected: Token };
  /** meaningful words said that are not from the question */
  ownWords: Token[];
}

export function sortLeftovers(
  expected: Token[],
  scores: ItemScore[],
  user: Analysis,
  questionConcepts: Set<string>,
  t: GradingThresholds,
  /** words the child negated ("not blue"): ruled out, so neither extra nor a second guess */
  negated: Set<number> = new Set(),
): Leftovers {
  // "a cat or a dog" names two candidates: a guess between answers, not an answer.
  const guessing = user.tokens.some((tok) => tok.raw === 'or');
  const used = new Set<number>();
  const matched = new Set<Token>();
  for (const s of scores) {
    for (const m of s.matches) {
      m.match.used.forEach((i) => used.add(i));
      matched.add(m.expected);
    }
  }
  const out: Leftovers = { extras: [], ownWords: [] };
  user.tokens.forEach((u, idx) => {
    const vague = u.kind === 'vague';
    if (!(isMeaningful(u) || vague) || u.kind === 'modifier') return;
    if (questionConcepts.has(u.concept) || negated.has(idx)) return;
    out.ownWords.push(u);
    if (used.has(idx)) return;
    let related = false;
    // a word that is vaguer than (or matches) one expected word is no rival of another ("planet" for "help ... the Earth")
    let rival: { said: Token; expected: Token } | undefined;
    for (const e of expected) {
      const r = relate(e, u, t);
      if (r.kind === 'opposite') {
        out.opposite ??= { said: u, expected: e };
      } else if (r.kind === 'broader') {
        related = true;
        out.broader ??= { said: u, expected: e };
      } else if (r.kind === 'conflict') {
        if (matched.has(e)) {
          if (L.isColor(e.concept) || e.kind === 'number' || guessing) out.hedge ??= { said: u, expected: e };
        } else {
          rival ??= { said: u, expected: e };
        }
      } else if (r.kind === 'match') {
        related = true;
      }
    }
    if (rival && !related) out.conflict ??= rival;
    if (!related || vague) out.extras.push(u);
  });
  return out;
}
