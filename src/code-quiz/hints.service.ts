import type { CodeRunner, RunLimits } from '../code-runner/types.js';
import { badRequest } from '../http/errors.js';
import { normalizeWhitespace, referenceSteps, substituteLine } from './align.js';
import type { CodeLanguage, RunCase } from './code-quiz.schema.js';
import { mutateLine, type Mutant } from './mutations.js';
import { runCases, whenRunnerFree } from './test-runner.js';

/**
 * What saving a problem proves in the sandbox: its reference solution passes every test
 * (else 400 naming the first failing test), and for each step of the solution, which novice
 * mutations really fail a test when put in that step's place. The verified mutants are stored
 * with the problem, so POST /suggest never runs code on the offline path.
 */

export interface HintLine {
  /** 0-based line index in the solution */
  line: number;
  distractors: Mutant[];
}

export interface CheckedProblem {
  language: CodeLanguage;
  solution: string;
  tests: { stdin: string; expected_stdout: string; hidden: boolean }[];
}

/** Verified distractors kept per step: two are shown, a third is a spare for AI replacements. */
export const DISTRACTORS_PER_LINE = 3;
/** Steps beyond this many get no precomputed distractors (bounded save time). */
const MAX_STEPS = 60;
/**
 * A mutant that loops forever counts as wrong once it hits this wall time; a short limit keeps
 * saving a problem with such mutants quick.
 */
export const MUTANT_LIMITS: Partial<RunLimits> = { wallMs: 1000, cpuSeconds: 1 };

export function casesOf(problem: Pick<CheckedProblem, 'tests'>): RunCase[] {
  return problem.tests.map((t) => ({ stdin: t.stdin, expected: t.expected_stdout }));
}

export async function verifySolution(runner: CodeRunner, problem: CheckedProblem): Promise<void> {
  const results = await whenRunnerFree(() => runCases(runner, problem.language, problem.solution, casesOf(problem), { stopAtFirstFailure: true }));
  const failed = results.findIndex((r) => !r.passed);
  if (failed === -1) return;
  const r = results[failed]!;
  const why = r.timedOut
    ? 'it ran out of time'
    : r.exitCode !== 0
      ? `it stopped with an error (exit code ${r.exitCode}): ${lastLine(r.stderr)}`
      : `it printed ${JSON.stringify(r.stdout.slice(0, 200))} instead of ${JSON.stringify(problem.tests[failed]!.expected_stdout.slice(0, 200))}`;
  throw badRequest(`The reference solution fails test ${failed + 1}: ${why}.`, { failing_test: failed + 1, stdout: r.stdout.slice(0, 2000), stderr: r.stderr.slice(0, 2000), exitCode: r.exitCode, timed_out: r.timedOut }, 'solution_fails_tests');
}

/** Runs every candidate mutant in its step's place; keeps up to DISTRACTORS_PER_LINE that fail a test. */
export async function computeHints(runner: CodeRunner, problem: CheckedProblem): Promise<HintLine[]> {
  const steps = referenceSteps(problem.solution, problem.language).slice(0, MAX_STEPS);
  const cases = casesOf(problem);
  const hints: HintLine[] = [];
  for (const step of steps) {
    const kept: Mutant[] = [];
    for (const m of byKindInTurn(mutateLine(step, steps, problem.language, problem.solution))) {
      if (kept.length >= DISTRACTORS_PER_LINE) break;
      if (await failsATest(runner, problem.language, substituteLine(problem.solution, step.index, m.text), cases)) kept.push(m);
    }
    hints.push({ line: step.index, distractors: kept });
  }
  return hints;
}

/** True when the program fails at least one of the cases (stops at the first failure). */
export async function failsATest(runner: CodeRunner, language: CodeLanguage, code: string, cases: RunCase[]): Promise<boolean> {
  const results = await whenRunnerFree(() => runCases(runner, language, code, cases, { stopAtFirstFailure: true, limits: MUTANT_LIMITS }));
  return results.some((r) => !r.passed);
}

/** Distinct after whitespace normalisation, and different from the right line. */
export function distinctChoices(suggestion: string, candidates: string[]): string[] {
  const seen = new Set([normalizeWhitespace(suggestion)]);
  return candidates.filter((c) => {
    const key = normalizeWhitespace(c);
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One mutant of each kind first, then the second of each: two shown choices trap different mistakes. */
export function byKindInTurn(mutants: Mutant[]): Mutant[] {
  const groups = new Map<string, Mutant[]>();
  for (const m of mutants) groups.set(m.kind, [...(groups.get(m.kind) ?? []), m]);
  const out: Mutant[] = [];
  for (let round = 0; out.length < mutants.length; round++) {
    for (const g of groups.values()) if (g[round]) out.push(g[round]!);
  }
  return out;
}

function lastLine(s: string): string {
  const lines = s.trim().split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 200) || 'no error text';
}
