/**
 * The offline answer grader: pure, deterministic, no I/O beyond loading its resources once.
 * gradeAnswer() compares what the child said with the expected answer (and the question, when
 * given) and returns the contract's evaluation: similarity 0..1, status correct / almost / wrong,
 * is_numeric, and a reason a parent can read. The context (context.ts) is worked out once; the
 * decision ladder's named steps (ladder.ts) then decide in order: yes/no, "I don't know", no
 * answer, negation, a single expected number, an opposite, meaning coverage, vaguer, and the rest.
 */
import { buildContext, type GradeInput } from './context.js';
import { runLadder, type AnswerStatus, type Verdict } from './ladder.js';
import { explain, type Decision } from './reasons.js';
import { GRADING_THRESHOLDS, type GradingThresholds } from './thresholds.js';
import { loadWordnet, type LoadStats } from './wordnet.js';

export type { GradeInput } from './context.js';
export type { AnswerStatus } from './ladder.js';

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

/** Loads what the grader judges with (done on first use anyway) and says what it cost: for the bench and start-up logs. */
export function gradingResources(): { wordnet: LoadStats } {
  return { wordnet: loadWordnet().stats };
}

export function gradeAnswer(input: GradeInput, t: GradingThresholds = GRADING_THRESHOLDS): GradeResult {
  return gradeAnswerDetailed(input, t).result;
}

export function gradeAnswerDetailed(input: GradeInput, t: GradingThresholds = GRADING_THRESHOLDS): GradeOutcome {
  const context = buildContext(input, t);
  return present(input, context.isNumeric, runLadder(context));
}

/** The verdict as the contract's evaluation, with its similarity rounded and its reason written out. */
function present(input: GradeInput, isNumeric: boolean, v: Verdict): GradeOutcome {
  const similarity = Math.round(Math.min(1, Math.max(0, v.similarity)) * 100) / 100;
  const reason = explain(v.decision, v.status, { expected: input.expected, user: input.user, ...v.detail });
  return {
    result: { similarity, expected: input.expected, user: input.user, status: v.status, is_numeric: isNumeric, reason },
    decision: v.decision,
    borderline: v.borderline ?? false,
  };
}
