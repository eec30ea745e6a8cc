import type { CodeRunner } from '../code-runner/types.js';
import type { Logger } from '../logger.js';
import type { CodeClass } from './classes.repository.js';
import type { ProblemInput } from './code-quiz.schema.js';
import { computeHints, verifySolution } from './hints.service.js';
import type { Problem, ProblemFields, ProblemsRepository } from './problems.repository.js';

/**
 * Saving a problem: the reference solution must pass its own tests in the sandbox (else 400
 * naming the failing test, nothing stored), then the offline hint material is computed once
 * and stored with the problem in one transaction.
 */
export async function checkedProblemFields(runner: CodeRunner, input: ProblemInput, logger: Logger): Promise<ProblemFields> {
  const started = performance.now();
  await verifySolution(runner, input);
  const hints = await computeHints(runner, input);
  logger.info(
    {
      language: input.language,
      steps: hints.length,
      distractors: hints.reduce((n, h) => n + h.distractors.length, 0),
      ms: Math.round(performance.now() - started),
    },
    'code problem checked in the sandbox',
  );
  return { ...input, hints };
}

export async function createProblem(repo: ProblemsRepository, runner: CodeRunner, cls: CodeClass, input: ProblemInput, logger: Logger): Promise<Problem> {
  return repo.create(cls.class_id, await checkedProblemFields(runner, input, logger));
}

export async function updateProblem(repo: ProblemsRepository, runner: CodeRunner, problem: Problem, input: ProblemInput, logger: Logger): Promise<Problem> {
  return repo.update(problem.problem_id, await checkedProblemFields(runner, input, logger));
}

/** What the expert sees: everything, with how many wrong lines were proven per step. */
export function expertProblemView(p: Problem) {
  return {
    problem_id: p.problem_id,
    class_id: p.class_id,
    title: p.title,
    prompt: p.prompt,
    language: p.language,
    starter_code: p.starter_code,
    solution: p.solution,
    tests: p.tests,
    hints: p.hints.map((h) => ({ line: h.line + 1, distractors: h.distractors })),
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

export type Progress = { solved: boolean; runs: number; hints: number; last_activity: string | null };
const NO_PROGRESS: Progress = { solved: false, runs: 0, hints: 0, last_activity: null };

/** What a child sees: no reference solution, no hint material, hidden tests only counted. */
export function learnerProblemView(p: Problem, className: string, progress?: Progress) {
  return {
    problem_id: p.problem_id,
    class_id: p.class_id,
    class_name: className,
    title: p.title,
    prompt: p.prompt,
    language: p.language,
    starter_code: p.starter_code,
    tests: p.tests.filter((t) => !t.hidden).map((t) => ({ stdin: t.stdin, expected_stdout: t.expected_stdout })),
    hidden_tests: p.tests.filter((t) => t.hidden).length,
    progress: progress ?? NO_PROGRESS,
  };
}
