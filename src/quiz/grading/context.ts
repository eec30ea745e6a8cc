/**
 * Everything the decision ladder looks at, worked out once from the question, the expected answer
 * and what the child said: the analyses, yes/no and "I don't know" handling, the negations and
 * what they reach, the expected answer's items and how well the child's words cover each of
 * them, and the child's other words (extra, vaguer, contradicting). Pure: no I/O, no state.
 */
import { analyze, isMeaningful, type Analysis, type AnalyzeOptions, type Token } from './analyze.js';
import { memoize } from './memo.js';
import { scoreItem, sortLeftovers, splitItems, type ItemScore, type Leftovers } from './items.js';
import * as L from './lexicon.js';
import { relate } from './match.js';
import type { GradingThresholds } from './thresholds.js';

export interface GradeInput {
  expected: string;
  user: string;
  question?: string;
}

export interface Context {
  input: GradeInput;
  t: GradingThresholds;
  questionConcepts: Set<string>;
  /** the question asks for a count, or the expected answer is a number */
  isNumeric: boolean;
  /** the question asks why: the answer must carry the reason, not only a thing from it */
  whyAsked: boolean;
  exp: Analysis;
  /** a yes/no expected answer and what the child said of yes or no */
  polarity?: 'yes' | 'no';
  saidPolarity?: 'yes' | 'no';
  /** the child said only "I don't know" (or a "don't know" and words that mean nothing) */
  dontKnowOnly: boolean;
  /** nothing meaningful was said (fillers, function words only) */
  heardNothing: boolean;
  /** "I don't know... red?": an answer given unsure */
  unsure: boolean;
  /** the child's answer as graded (without a "don't know", "not" compared as a word when expected) */
  usr: Analysis;
  expectsNegation: boolean;
  /** concepts the expected answer's own "not" reaches ("he did not share" -> share) */
  negatedInExpected: Set<string>;
  items: Token[][];
  alternatives: boolean;
  allExpected: Token[];
  /** indices of the child's words a "not"/"never" reaches */
  negated: Set<number>;
  scores: ItemScore[];
  left: Leftovers;
}

const NUMERIC_QUESTION = /\bhow\s+(many|old|much)\b|\bwhat\s+number\b|\bcount\b/i;
const NAME_QUESTION = /\b(who|whom|name|named|called)\b/i;
const WHY_QUESTION = /^\s*(why|how come)\b/i;

/** Questions and expected answers repeat for every child: their analysis is kept (never the child's words). */
const analysisMemo = memoize((key: string) => {
  const { text, opts } = JSON.parse(key) as { text: string; opts: AnalyzeOptions };
  return analyze(text, opts);
}, 2000);
const analyzeCached = (text: string, opts: AnalyzeOptions): Analysis => analysisMemo(JSON.stringify({ text, opts }));

export function buildContext(input: GradeInput, t: GradingThresholds): Context {
  const question = input.question ?? '';
  const q = analyzeCached(question, {});
  const questionConcepts = new Set(q.tokens.filter(isMeaningful).map((tok) => tok.concept));
  const isNumeric = NUMERIC_QUESTION.test(question) || onlyNumber(analyzeCached(input.expected, {}), questionConcepts);
  const exp = analyzeCached(input.expected, { namesAsked: NAME_QUESTION.test(question), numeric: isNumeric });
  let usr = analyze(input.user, { numeric: isNumeric, homophones: isNumeric });

  let expTokens = exp.tokens;
  const polarity = yesNo(exp);
  const saidPolarity = polarity ? yesNo(usr, true) : undefined;
  if (polarity) {
    // "no, he was mean" answered with "he was mean": grade the part after the yes/no.
    const first = expTokens.findIndex((tok) => L.YES_WORDS.has(tok.raw) || L.NO_WORDS.has(tok.raw));
    expTokens = expTokens.filter((_, i) => i !== first);
  }
  const dontKnow = stripDontKnow(usr.normalized);
  let dontKnowOnly = false;
  if (dontKnow.found) {
    const rest = analyze(dontKnow.rest, { numeric: isNumeric, homophones: isNumeric });
    dontKnowOnly = !rest.tokens.some(isMeaningful);
    if (!dontKnowOnly) usr = rest;
  }
  const heardNothing = !usr.tokens.some((tok) => isMeaningful(tok) || tok.kind === 'vague' || tok.kind === 'negation');
  const expectsNegation = expTokens.some((tok) => tok.kind === 'negation');
  const negatedInExpected = new Set([...negationScope(expTokens)].map((i) => (expTokens[i] as Token).concept));
  if (expectsNegation) {
    // "not" is part of the answer itself ("he did not share"): compare it like a word.
    expTokens = expTokens.map(negationAsWord);
    usr = { ...usr, tokens: usr.tokens.map(negationAsWord) };
  }
  let { items, alternatives } = splitItems(expTokens);
  if (items.length === 0) {
    // Only function words expected ("up", "him"): compare those words themselves.
    usr = { ...usr, tokens: usr.tokens.map(promoteFunctionWord) };
    ({ items, alternatives } = splitItems(expTokens.map(promoteFunctionWord)));
  }
  const questionNegates = q.tokens.some((tok) => tok.kind === 'negation');
  const negated = expectsNegation || questionNegates ? new Set<number>() : negationScope(usr.tokens);
  const allExpected = items.flat();
  usr = negatedOpposites(usr, negated, allExpected, t);
  const scores = items.map((item) => scoreItem(item, usr, questionConcepts, t));
  const left = sortLeftovers(allExpected, scores, usr, questionConcepts, t, negated);
  return {
    input, t, questionConcepts, isNumeric, whyAsked: WHY_QUESTION.test(question), exp, polarity, saidPolarity,
    dontKnowOnly, heardNothing, unsure: dontKnow.found && !dontKnowOnly, usr, expectsNegation, negatedInExpected,
    items, alternatives, allExpected, negated, scores, left,
  };
}

/** The expected answer is a number (words from the question aside): "5", "five apples". */
function onlyNumber(exp: Analysis, questionConcepts: Set<string>): boolean {
  const own = exp.tokens.filter((tok) => isMeaningful(tok) && !questionConcepts.has(tok.concept));
  return own.some((tok) => tok.kind === 'number') && own.every((tok) => tok.kind === 'number' || tok.kind === 'modifier');
}

function yesNo(a: Analysis, anywhere = false): 'yes' | 'no' | undefined {
  for (const tok of a.tokens) {
    if (tok.kind === 'filler' && !L.YES_WORDS.has(tok.raw)) continue;
    if (L.YES_WORDS.has(tok.raw)) return 'yes';
    if (L.NO_WORDS.has(tok.raw)) return 'no';
    if (!anywhere) return undefined;
  }
  return undefined;
}

const DONT_KNOW_LONGEST_FIRST = [...L.DONT_KNOW].sort((a, b) => b.length - a.length);

function stripDontKnow(normalized: string): { found: boolean; rest: string } {
  let s = ` ${normalized} `;
  let found = false;
  for (const phrase of DONT_KNOW_LONGEST_FIRST) {
    if (!phrase.includes(' ')) {
      if (normalized === phrase) return { found: true, rest: '' };
      continue;
    }
    while (s.includes(` ${phrase} `)) {
      s = s.replace(` ${phrase} `, ' ');
      found = true;
    }
  }
  return { found, rest: s.trim() };
}

/** Indices of words a "not"/"never"/"no" reaches, up to a boundary ("it is not blue, it is red"). */
export function negationScope(tokens: Token[]): Set<number> {
  const out = new Set<number>();
  tokens.forEach((tok, k) => {
    if (tok.kind !== 'negation') return;
    let seen = 0;
    for (let j = k + 1; j < tokens.length && seen < 3; j++) {
      const next = tokens[j] as Token;
      if (next.kind === 'separator' || L.NEGATION_BOUNDARY.has(next.raw)) break;
      if (isMeaningful(next) || next.kind === 'vague') {
        out.add(j);
        seen++;
      }
    }
  });
  return out;
}

/**
 * "not happy" for "sad", "so they don't get cold" for "to stay warm": a negated opposite of an
 * expected word (the overlay's or WordNet's antonyms) says that word. The token takes the expected
 * concept and leaves the negation's reach.
 */
function negatedOpposites(a: Analysis, negated: Set<number>, expected: Token[], t: GradingThresholds): Analysis {
  let changed = false;
  const tokens = a.tokens.map((tok, i) => {
    if (!negated.has(i)) return tok;
    const e = expected.find((x) => relate(x, tok, t).kind === 'opposite');
    if (!e) return tok;
    negated.delete(i);
    changed = true;
    return { ...tok, raw: `not ${tok.raw}`, concept: e.concept, lemma: `not ${tok.lemma}` };
  });
  return changed ? { ...a, tokens } : a;
}

function negationAsWord(tok: Token): Token {
  return tok.kind === 'negation' ? { ...tok, kind: 'content', concept: 'not', weight: 1 } : tok;
}

function promoteFunctionWord(tok: Token): Token {
  return ['stop', 'prep', 'weak', 'vague', 'title'].includes(tok.kind) ? { ...tok, kind: 'content', weight: 1 } : tok;
}
