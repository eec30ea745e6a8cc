/**
 * The offline answer grader: pure, deterministic, no I/O. gradeAnswer() compares what the
 * child said with the expected answer (and the question, when given) and returns the
 * contract's evaluation: similarity 0..1, status correct / almost / wrong, is_numeric, and a
 * reason a parent can read. Rules run in order: no answer, "I don't know", yes/no answers,
 * negation, a single expected number, then word-by-word meaning coverage.
 */
import { analyze, isMeaningful, type Analysis, type AnalyzeOptions, type Token } from './analyze.js';
import { memoize } from './memo.js';
import { scoreItem, sortLeftovers, splitItems, type ItemScore } from './items.js';
import * as L from './lexicon.js';
import { GRADING_THRESHOLDS, type GradingThresholds } from './thresholds.js';
import { explain, type Decision, type ExplainInput } from './reasons.js';
import { loadWordnet, type LoadStats } from './wordnet.js';

export type AnswerStatus = 'correct' | 'almost' | 'wrong';

export interface GradeInput {
  expected: string;
  user: string;
  question?: string;
}

export interface GradeResult {
  similarity: number;
  expected: string;
  user: string;
  status: AnswerStatus;
  is_numeric: boolean;
  reason: string;
}

export interface GradeOutcome {
  result: GradeResult;
  decision: Decision;
  /** the offline rules were not sure: an AI judge, when configured, may decide */
  borderline: boolean;
}

const NUMERIC_QUESTION = /\bhow\s+(many|old|much)\b|\bwhat\s+number\b|\bcount\b/i;
const NAME_QUESTION = /\b(who|whom|name|named|called)\b/i;

/** Questions and expected answers repeat for every child: their analysis is kept (never the child's words). */
const analysisMemo = memoize((key: string) => {
  const { text, opts } = JSON.parse(key) as { text: string; opts: AnalyzeOptions };
  return analyze(text, opts);
}, 2000);
const analyzeCached = (text: string, opts: AnalyzeOptions): Analysis => analysisMemo(JSON.stringify({ text, opts }));

/** Loads what the grader judges with (done on import anyway) and says what it cost: for the bench and start-up logs. */
export function gradingResources(): { wordnet: LoadStats } {
  return { wordnet: loadWordnet().stats };
}

export function gradeAnswer(input: GradeInput, t: GradingThresholds = GRADING_THRESHOLDS): GradeResult {
  return gradeAnswerDetailed(input, t).result;
}

export function gradeAnswerDetailed(input: GradeInput, t: GradingThresholds = GRADING_THRESHOLDS): GradeOutcome {
  const question = input.question ?? '';
  const namesAsked = NAME_QUESTION.test(question);
  const q = analyzeCached(question, {});
  const questionConcepts = new Set(q.tokens.filter(isMeaningful).map((tok) => tok.concept));
  const isNumeric = NUMERIC_QUESTION.test(question) || onlyNumber(analyzeCached(input.expected, {}), questionConcepts);
  const exp = analyzeCached(input.expected, { namesAsked, numeric: isNumeric });
  let usr = analyze(input.user, { numeric: isNumeric, homophones: isNumeric });
  const finish = (status: AnswerStatus, similarity: number, decision: Decision, detail: Partial<ExplainInput> = {}, borderline = false): GradeOutcome => {
    const sim = Math.round(Math.min(1, Math.max(0, similarity)) * 100) / 100;
    const reason = explain(decision, status, { expected: input.expected, user: input.user, ...detail });
    return { result: { similarity: sim, expected: input.expected, user: input.user, status, is_numeric: isNumeric, reason }, decision, borderline };
  };

  let expTokens = exp.tokens;
  const polarity = yesNo(exp);
  if (polarity) {
    const said = yesNo(usr, true);
    if (said === polarity) return finish('correct', 1, 'yes_no', { said });
    if (said) return finish('wrong', 0, 'yes_no', { said });
    // "no, he was mean" answered with "he was mean": grade the part after the yes/no.
    const first = expTokens.findIndex((tok) => L.YES_WORDS.has(tok.raw) || L.NO_WORDS.has(tok.raw));
    expTokens = expTokens.filter((_, i) => i !== first);
  }

  const dontKnow = stripDontKnow(usr.normalized);
  let unsure = false;
  if (dontKnow.found) {
    const rest = analyze(dontKnow.rest, { numeric: isNumeric, homophones: isNumeric });
    if (!rest.tokens.some(isMeaningful)) return finish('wrong', 0, 'dont_know');
    usr = rest;
    unsure = true;
  }
  if (!usr.tokens.some((tok) => isMeaningful(tok) || tok.kind === 'vague' || tok.kind === 'negation')) {
    return finish('wrong', 0, 'empty');
  }

  const expectsNegation = expTokens.some((tok) => tok.kind === 'negation');
  if (expectsNegation) {
    // "not" is part of the answer itself ("he did not share"): compare it like a word.
    expTokens = expTokens.map(negationAsWord);
    usr = { ...usr, tokens: usr.tokens.map(negationAsWord) };
  }
  let { items, alternatives } = splitItems(expTokens);
  if (items.length === 0) {
    // Only function words expected ("up", "him"): compare those words themselves.
    const promote = (a: Analysis): Analysis => ({ ...a, tokens: a.tokens.map(promoteFunctionWord) });
    usr = promote(usr);
    ({ items, alternatives } = splitItems(expTokens.map(promoteFunctionWord)));
    if (items.length === 0) return finish('wrong', 0, 'no_expected');
  }
  const questionNegates = q.tokens.some((tok) => tok.kind === 'negation');
  const negated = expectsNegation || questionNegates ? new Set<number>() : negationScope(usr.tokens);
  const allExpected = items.flat();
  usr = negatedOpposites(usr, negated, allExpected);

  const scores = items.map((item) => scoreItem(item, usr, questionConcepts, t));
  const negatedHit = scores.flatMap((s) => s.matches).find((m) => m.match.used.some((i) => negated.has(i)));
  if (negatedHit) return finish('wrong', 0, 'negation', { said: negatedPhrase(usr, negated) });
  if (expectsNegation && !usr.tokens.some((tok) => tok.concept === 'not')) return finish('wrong', 0, 'negation_missing');

  const expNumbers = new Set(allExpected.filter((tok) => tok.kind === 'number').map((tok) => tok.concept));
  if (isNumeric && expNumbers.size === 1 && items.length === 1) {
    const target = [...expNumbers][0] as string;
    const said = [...new Set(usr.tokens.filter((tok, i) => tok.kind === 'number' && !negated.has(i)).map((tok) => tok.concept))];
    if (said.includes(target)) {
      const others = said.filter((n) => n !== target);
      if (others.length > 0) return cap(unsure, finish('almost', t.correct - 0.05, 'number_hedge', { said: others.join(', '), target }));
      return cap(unsure, finish('correct', 1, 'number', { target }));
    }
    return finish('wrong', 0, said.length > 0 ? 'number_wrong' : 'number_missing', { said: said.join(', '), target });
  }

  const left = sortLeftovers(allExpected, scores, usr, questionConcepts, t, negated);
  if (left.opposite) return finish('wrong', 0, 'opposite', { said: left.opposite.said.raw, target: left.opposite.expected.raw });
  const covered = coverage(scores, alternatives);
  const best = alternatives ? scores.reduce((a, b) => (b.coverage > a.coverage ? b : a)) : undefined;
  const okItems = scores.filter((s) => s.hasCore && s.coverage >= t.key_idea);
  const anyCore = scores.some((s) => s.hasCore);
  const notes = { notes: scores.flatMap((s) => s.matches), missing: scores.flatMap((s) => s.missing) };
  // The right thing in the wrong place ("on the bed" for "under the bed") is only almost.
  const place = (outcome: GradeOutcome): GradeOutcome => {
    const clash = positionClash(exp.words, usr.words);
    if (!clash || outcome.result.status !== 'correct') return outcome;
    return finish('almost', t.correct - 0.05, 'position', { said: clash.said, target: clash.expected }, true);
  };

  if (best || items.length === 1) {
    const s = best ?? (scores[0] as ItemScore);
    if (s.hasCore && s.coverage >= t.correct) {
      if (left.hedge) return finish('almost', t.correct - 0.05, 'hedge', { said: left.hedge.said.raw, ...notes });
      if (left.conflict) return finish('almost', Math.min(s.coverage, t.correct - 0.05), 'partial', { said: left.conflict.said.raw, ...notes });
      return place(cap(unsure, finish('correct', Math.max(t.correct, s.coverage), 'match', notes)));
    }
    const keyIdea = s.coverage >= t.key_idea || s.headSaid;
    if (s.hasCore && keyIdea && left.extras.length === 0 && !s.missingVerb && !left.conflict) {
      return place(cap(unsure, finish('correct', t.correct, 'key_idea', notes, true)));
    }
  } else if (okItems.length === items.length) {
    if (left.hedge) return finish('almost', t.correct - 0.05, 'hedge', { said: left.hedge.said.raw, ...notes });
    return place(cap(unsure, finish('correct', Math.max(t.correct, covered), 'match', notes)));
  } else if (okItems.length > 0) {
    return finish('almost', clampAlmost(covered, t), 'some_items', { count: okItems.length, total: items.length, ...notes }, true);
  }
  if (anyCore) return finish('almost', clampAlmost(covered, t), 'partial', notes, true);
  if (left.broader) return finish('almost', t.vaguer, 'vaguer', { said: left.broader.said.raw }, true);
  const own = left.ownWords.filter((tok) => tok.kind !== 'vague');
  if (allExpected.some((tok) => tok.name) && own.length > 0 && own.every((tok) => L.isPersonWord(tok.concept))) {
    return finish('almost', t.vaguer, 'vague_person', { said: own.map((tok) => tok.raw).join(' ') }, true);
  }
  if (own.length === 0 && negated.size === 0) return finish('wrong', 0, 'echo');
  if (left.conflict) return finish('wrong', Math.min(covered, t.almost - 0.1), 'conflict', { said: left.conflict.said.raw, target: left.conflict.expected.raw });
  return finish('wrong', Math.min(covered, t.almost - 0.1), 'no_match', {}, true);
}

/** The expected answer is a number (words from the question aside): "5", "five apples". */
function onlyNumber(exp: Analysis, questionConcepts: Set<string>): boolean {
  const own = exp.tokens.filter((tok) => isMeaningful(tok) && !questionConcepts.has(tok.concept));
  return own.some((tok) => tok.kind === 'number') && own.every((tok) => tok.kind === 'number' || tok.kind === 'modifier');
}

/** An unsure answer ("I don't know... red?") is at best almost. */
function cap(unsure: boolean, outcome: GradeOutcome): GradeOutcome {
  if (!unsure || outcome.result.status !== 'correct') return outcome;
  const reason = explain('unsure', 'almost', { expected: outcome.result.expected, user: outcome.result.user });
  return { ...outcome, decision: 'unsure', borderline: true, result: { ...outcome.result, status: 'almost', similarity: 0.7, reason } };
}

function coverage(scores: ItemScore[], alternatives: boolean): number {
  if (scores.length === 0) return 0;
  if (alternatives) return Math.max(...scores.map((s) => s.coverage));
  return scores.reduce((sum, s) => sum + s.coverage, 0) / scores.length;
}

const clampAlmost = (value: number, t: GradingThresholds) => Math.min(t.correct - 0.01, Math.max(t.almost, value));

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
function negationScope(tokens: Token[]): Set<number> {
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
 * "not happy" for "sad": a negated opposite of an expected word says that word. The token takes
 * the expected concept and leaves the negation's reach.
 */
function negatedOpposites(a: Analysis, negated: Set<number>, expected: Token[]): Analysis {
  let changed = false;
  const tokens = a.tokens.map((tok, i) => {
    if (!negated.has(i)) return tok;
    const e = expected.find((x) => L.areOpposites(x.concept, tok.concept));
    if (!e) return tok;
    negated.delete(i);
    changed = true;
    return { ...tok, raw: `not ${tok.raw}`, concept: e.concept, lemma: `not ${tok.lemma}` };
  });
  return changed ? { ...a, tokens } : a;
}

function negatedPhrase(a: Analysis, negated: Set<number>): string {
  const first = Math.min(...negated);
  const neg = [...a.tokens.slice(0, first)].reverse().find((tok) => tok.kind === 'negation');
  const words = a.tokens.filter((_, i) => negated.has(i)).map((tok) => tok.raw);
  return [neg?.raw ?? 'not', ...words].join(' ');
}

const POSITIONS: Record<string, string> = {
  under: 'under', underneath: 'under', beneath: 'under', below: 'under',
  on: 'on', onto: 'on', upon: 'on', above: 'on', over: 'on', top: 'on',
  in: 'in', inside: 'in', into: 'in', within: 'in',
  behind: 'behind', front: 'front', beside: 'beside', next: 'beside', near: 'beside', by: 'beside',
};

/** Both say where, in different ways that do not overlap ("under" vs "on", "behind" vs "in front"). */
function positionClash(expected: string[], user: string[]): { expected: string; said: string } | undefined {
  const where = (words: string[]) => {
    const found = new Map<string, string>();
    for (const w of words) if (POSITIONS[w]) found.set(POSITIONS[w] as string, w);
    if (found.has('front')) found.delete('in');
    return found;
  };
  const e = where(expected);
  const u = where(user);
  if (e.size === 0 || u.size === 0) return undefined;
  for (const k of e.keys()) if (u.has(k)) return undefined;
  return { expected: [...e.values()][0] as string, said: [...u.values()][0] as string };
}

function negationAsWord(tok: Token): Token {
  return tok.kind === 'negation' ? { ...tok, kind: 'content', concept: 'not', weight: 1 } : tok;
}

function promoteFunctionWord(tok: Token): Token {
  return ['stop', 'prep', 'weak', 'vague', 'title'].includes(tok.kind) ? { ...tok, kind: 'content', weight: 1 } : tok;
}
