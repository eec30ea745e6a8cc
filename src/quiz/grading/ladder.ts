/**
 * The decision ladder: named steps, tried in order, each a small pure function of the grading
 * context that either decides (a verdict: status, similarity, which decision, what to quote in
 * the reason) or passes (undefined) to the next. The first verdict stands.
 */
import type { Token } from './analyze.js';
import type { Context } from './context.js';
import type { ItemScore } from './items.js';
import * as L from './lexicon.js';
import { isMainlyAdjective, isResultOfVerb, isTimePeriod, namesPartOf } from './meaning.js';
import { lemmatize } from './morphology.js';
import type { Decision, ExplainInput } from './reasons.js';

export type AnswerStatus = 'correct' | 'almost' | 'wrong';

export interface Verdict {
  status: AnswerStatus;
  similarity: number;
  decision: Decision;
  detail?: Partial<ExplainInput>;
  /** the offline rules were not sure: an AI judge, when configured, may decide */
  borderline?: boolean;
}

export type Step = (c: Context) => Verdict | undefined;

const verdict = (status: AnswerStatus, similarity: number, decision: Decision, detail: Partial<ExplainInput> = {}, borderline = false): Verdict => ({
  status, similarity, decision, detail, borderline,
});

/** A yes/no question: the child's yes or no decides. */
export const yesNoStep: Step = (c) => {
  if (!c.polarity || !c.saidPolarity) return undefined;
  return c.saidPolarity === c.polarity ? verdict('correct', 1, 'yes_no', { said: c.saidPolarity }) : verdict('wrong', 0, 'yes_no', { said: c.saidPolarity });
};

/** Only "I don't know". */
export const dontKnowStep: Step = (c) => (c.dontKnowOnly ? verdict('wrong', 0, 'dont_know') : undefined);

/** Nothing but fillers and function words. */
export const emptyStep: Step = (c) => (c.heardNothing ? verdict('wrong', 0, 'empty') : undefined);

/** The expected answer has no words to compare with. */
export const noExpectedStep: Step = (c) => (c.items.length === 0 ? verdict('wrong', 0, 'no_expected') : undefined);

/**
 * The child negated what is expected ("not the dog" for "the dog"), or left out the expected
 * answer's own "not" while saying what it negates ("he shared" for "he did not share"). A part of
 * a negated answer said without its negated part is not a contradiction: the later steps grade it.
 */
export const negationStep: Step = (c) => {
  const matches = c.scores.flatMap((s) => s.matches);
  if (matches.some((m) => m.match.used.some((i) => c.negated.has(i)))) return verdict('wrong', 0, 'negation', { said: negatedPhrase(c) });
  if (!c.expectsNegation || c.usr.tokens.some((tok) => tok.concept === 'not')) return undefined;
  const saysNegatedPart = matches.some((m) => c.negatedInExpected.has(m.expected.concept));
  return saysNegatedPart ? verdict('wrong', 0, 'negation_missing') : undefined;
};

/** A single expected number: the child's numbers decide. */
export const numberStep: Step = (c) => {
  const expNumbers = new Set(c.allExpected.filter((tok) => tok.kind === 'number').map((tok) => tok.concept));
  if (!c.isNumeric || expNumbers.size !== 1 || c.items.length !== 1) return undefined;
  const target = [...expNumbers][0] as string;
  const said = [...new Set(c.usr.tokens.filter((tok, i) => tok.kind === 'number' && !c.negated.has(i)).map((tok) => tok.concept))];
  if (!said.includes(target)) return verdict('wrong', 0, said.length > 0 ? 'number_wrong' : 'number_missing', { said: said.join(', '), target });
  const others = said.filter((n) => n !== target);
  if (others.length > 0) return unsureCap(c, verdict('almost', c.t.correct - 0.05, 'number_hedge', { said: others.join(', '), target }));
  return unsureCap(c, verdict('correct', 1, 'number', { target }));
};

/** The opposite of an expected word ("lost" for "found"), or another number in its place ("nine o'clock" for "ten o'clock"). */
export const oppositeStep: Step = (c) => {
  const o = c.left.opposite;
  if (o) return verdict('wrong', 0, 'opposite', { said: o.said.raw, target: o.expected.raw });
  const n = c.left.conflict;
  if (n && n.expected.kind === 'number' && n.said.kind === 'number') return verdict('wrong', 0, 'number_wrong', { said: n.said.raw, target: n.expected.raw });
  return undefined;
};

/** How much of the expected answer's meaning the child's words cover. */
export const coverageStep: Step = (c) => {
  const { scores, left, t } = c;
  const notes = { notes: scores.flatMap((s) => s.matches), missing: scores.flatMap((s) => s.missing) };
  const covered = coverage(scores, c.alternatives);
  const best = c.alternatives ? scores.reduce((a, b) => (b.coverage > a.coverage ? b : a)) : undefined;
  const settle = (v: Verdict) => reasonCheck(c, positionCheck(c, unsureCap(c, v)));
  if (best || c.items.length === 1) {
    const s = best ?? (scores[0] as ItemScore);
    if (s.hasCore && s.coverage >= t.correct) {
      if (left.hedge) return verdict('almost', t.correct - 0.05, 'hedge', { said: left.hedge.said.raw, ...notes });
      if (left.conflict) return verdict('almost', Math.min(s.coverage, t.correct - 0.05), 'partial', { said: left.conflict.said.raw, ...notes });
      return settle(verdict('correct', Math.max(t.correct, s.coverage), 'match', notes));
    }
    const keyIdea = s.coverage >= t.key_idea || s.headSaid;
    // a vaguer word in place of a missing expected word ("a hot drink" for "hot cocoa") is not the key idea
    const vaguerForMissing = left.broader !== undefined && s.missing.includes(left.broader.expected);
    // a head without the named kind before it ("a driver" for "a garbage truck driver") is less precise, as "a truck" is for "tow truck"
    const kindMissing = s.headSaid && s.missing.some((e) => e.phrase !== undefined && !e.verb);
    // a reason without what it acts on ("it's not healthy" for "it hurts your teeth") is a vaguer reason
    const reasonObjectMissing = c.whyAsked && s.missing.some((e) => e.kind === 'content' && !e.verb && !e.name && !isMainlyAdjective(e.lemma) && s.matches.some((m) => m.expected.start < e.start));
    if (s.hasCore && keyIdea && left.extras.length === 0 && !s.missingVerb && !left.conflict && !vaguerForMissing && !kindMissing && !reasonObjectMissing) {
      return settle(verdict('correct', t.correct, 'key_idea', notes, true));
    }
  } else {
    const okItems = scores.filter((s) => s.hasCore && s.coverage >= t.key_idea);
    if (okItems.length === c.items.length) {
      if (left.hedge) return verdict('almost', t.correct - 0.05, 'hedge', { said: left.hedge.said.raw, ...notes });
      return settle(verdict('correct', Math.max(t.correct, covered), 'match', notes));
    }
    if (okItems.length > 0) return verdict('almost', clampAlmost(c, covered), 'some_items', { count: okItems.length, total: c.items.length, ...notes }, true);
  }
  const replaced = otherThingNamed(c);
  if (replaced) return verdict('wrong', Math.min(covered, t.almost - 0.1), 'conflict', { said: replaced.said.raw, target: replaced.expected.raw });
  if (scores.some((s) => s.hasCore)) return verdict('almost', clampAlmost(c, covered), 'partial', notes, true);
  return undefined;
};

/**
 * Only describing words of a one-thing answer were said, and another thing in the place of the
 * thing itself ("hot cookies" for "hot cocoa", "a red hat" for "a red ball"): a different thing.
 */
export function otherThingNamed(c: Context): { said: Token; expected: Token } | undefined {
  if (c.items.length !== 1) return undefined;
  const s = c.scores[0] as ItemScore;
  const head = s.missing.find((e) => e.kind === 'content' && !e.verb && !e.name && !isMainlyAdjective(e.lemma));
  if (!head || s.matches.length === 0 || !s.matches.every((m) => m.expected.kind === 'modifier' || isMainlyAdjective(m.expected.lemma))) return undefined;
  const thing = c.left.extras.find((u) => u.kind === 'content' && !u.verb && !isMainlyAdjective(u.lemma));
  return thing ? { said: thing, expected: head } : undefined;
}

/** On the right track but vaguer: a broader word ("a bird" for "the owl"), a person word for a name. */
export const vaguerStep: Step = (c) => {
  if (c.left.broader) return verdict('almost', c.t.vaguer, 'vaguer', { said: c.left.broader.said.raw }, true);
  const own = ownWords(c);
  // a person word for a name ("a girl" for "Priya"), a word for anyone for a particular person ("a boy" for "her brother")
  const personExpected = c.allExpected.some((tok) => tok.name) ? L.isPersonWord : c.allExpected.some((tok) => L.isPersonWord(tok.concept)) ? L.isGenericPerson : undefined;
  // ... also described further ("a boy with a dog" for "Jamal"), as long as it names nobody else
  const describedPerson = own.length > 0 && personExpected?.((own[0] as Token).concept) && !own.some((tok) => tok.name) && !c.left.conflict;
  if (personExpected && own.length > 0 && (own.every((tok) => personExpected(tok.concept)) || describedPerson)) {
    return verdict('almost', c.t.vaguer, 'vague_person', { said: own.map((tok) => tok.raw).join(' ') }, true);
  }
  // "in the morning" for "ten o'clock": the part of the day, not the time on the clock
  const period = clockTimeExpected(c) ? own.find((tok) => !CLOCK_TIMES.has(tok.lemma) && (isTimePeriod(tok.lemma) || L.ancestors(tok.concept).has('time'))) : undefined;
  if (period && !c.left.conflict) return verdict('almost', c.t.vaguer, 'vaguer', { said: period.raw }, true);
  // "something sweet", "somewhere sandy": a placeholder with a description is a vague answer
  const placeholder = c.usr.tokens.find((tok) => tok.kind === 'vague');
  if (placeholder && own.length > 0 && !c.left.conflict && c.negated.size === 0) {
    return verdict('almost', c.t.vaguer, 'vague_answer', { said: placeholder.raw }, true);
  }
  return undefined;
};

/** Nothing matched: only the question's words, a different one of the same kind, or something else. */
export const fallbackStep: Step = (c) => {
  const covered = coverage(c.scores, c.alternatives);
  if (ownWords(c).length === 0 && c.negated.size === 0) return verdict('wrong', 0, 'echo');
  const conflict = c.left.conflict;
  if (conflict) return verdict('wrong', Math.min(covered, c.t.almost - 0.1), 'conflict', { said: conflict.said.raw, target: conflict.expected.raw });
  // "it gives you cavities" for "it hurts your teeth": a word whose other name holds an expected word ("tooth decay")
  const expectedNouns = c.allExpected.filter((e) => e.kind === 'content' && !e.verb && !c.questionConcepts.has(e.concept));
  const part = ownWords(c).find((u) => u.kind === 'content' && expectedNouns.some((e) => namesPartOf(u.lemma, e.lemma)));
  // "it made a big wind" for "the hats blew away": what the expected action makes, named
  const expectedVerbs = c.allExpected.filter((e) => e.verb && !c.questionConcepts.has(e.concept)).map((e) => lemmatize(e.raw.split(' ')[0] as string));
  const result = ownWords(c).find((u) => u.kind === 'content' && !u.verb && expectedVerbs.some((v) => isResultOfVerb(u.lemma, v)));
  if (part || result) return verdict('almost', c.t.almost, 'partial', { notes: [], missing: c.scores.flatMap((s) => s.missing) }, true);
  return verdict('wrong', Math.min(covered, c.t.almost - 0.1), 'no_match', {}, true);
};

export const LADDER: Step[] = [yesNoStep, dontKnowStep, emptyStep, noExpectedStep, negationStep, numberStep, oppositeStep, coverageStep, vaguerStep, fallbackStep];

export function runLadder(c: Context, steps: Step[] = LADDER): Verdict {
  for (const step of steps) {
    const v = step(c);
    if (v) return v;
  }
  return verdict('wrong', 0, 'no_match', {}, true);
}

/** An unsure answer ("I don't know... red?") is at best almost. */
export function unsureCap(c: Context, v: Verdict): Verdict {
  if (!c.unsure || v.status !== 'correct') return v;
  return { status: 'almost', similarity: 0.7, decision: 'unsure', detail: {}, borderline: true };
}

/** The right thing in the wrong place ("on the bed" for "under the bed") is only almost. */
export function positionCheck(c: Context, v: Verdict): Verdict {
  if (v.status !== 'correct') return v;
  const clash = positionClash(c.exp.words, c.usr.words);
  return clash ? verdict('almost', c.t.correct - 0.05, 'position', { said: clash.said, target: clash.expected }, true) : v;
}

/**
 * A "why" answer needs the reason: when the expected reason has an action or a describing word
 * ("he took a nap", "the pumpkin was too heavy") and the child named only a thing from it
 * ("because of the pumpkin"), the answer is only almost.
 */
export function reasonCheck(c: Context, v: Verdict): Verdict {
  if (!c.whyAsked || v.status !== 'correct') return v;
  const predicates = c.allExpected.filter((tok) => !c.questionConcepts.has(tok.concept) && tok.kind === 'content' && (tok.verb || isMainlyAdjective(tok.lemma)));
  if (predicates.length === 0) return v;
  const matched = new Set(c.scores.flatMap((s) => s.matches.map((m) => m.expected)));
  if (predicates.some((tok) => matched.has(tok))) return v;
  return verdict('almost', c.t.correct - 0.05, 'reason_missing', { missing: predicates }, true);
}

/** The expected answer is a time on the clock ("ten o'clock", "at noon"). */
const CLOCK_TIMES = new Set(['clock', 'noon', 'midnight']);
const clockTimeExpected = (c: Context) => c.allExpected.some((tok) => CLOCK_TIMES.has(tok.lemma));

function ownWords(c: Context): Token[] {
  return c.left.ownWords.filter((tok) => tok.kind !== 'vague');
}

function coverage(scores: ItemScore[], alternatives: boolean): number {
  if (scores.length === 0) return 0;
  if (alternatives) return Math.max(...scores.map((s) => s.coverage));
  return scores.reduce((sum, s) => sum + s.coverage, 0) / scores.length;
}

const clampAlmost = (c: Context, value: number) => Math.min(c.t.correct - 0.01, Math.max(c.t.almost, value));

function negatedPhrase(c: Context): string {
  const first = Math.min(...c.negated);
  const neg = [...c.usr.tokens.slice(0, first)].reverse().find((tok) => tok.kind === 'negation');
  const words = c.usr.tokens.filter((_, i) => c.negated.has(i)).map((tok) => tok.raw);
  return [neg?.raw ?? 'not', ...words].join(' ');
}

const POSITIONS: Record<string, string> = {
  under: 'under', underneath: 'under', beneath: 'under', below: 'under',
  on: 'on', onto: 'on', upon: 'on', above: 'on', over: 'on', top: 'on',
  in: 'in', inside: 'in', into: 'in', within: 'in',
  behind: 'behind', front: 'front', beside: 'beside', next: 'beside', near: 'beside', by: 'beside',
};

/** Both say where, in different ways that do not overlap ("under" vs "on", "behind" vs "in front"). */
export function positionClash(expected: string[], user: string[]): { expected: string; said: string } | undefined {
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
