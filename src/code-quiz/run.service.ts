import crypto from 'node:crypto';
import type { CodeRunner } from '../code-runner/types.js';
import { badRequest } from '../http/errors.js';
import type { ActivityRepository, Caller, NewRun } from './activity.repository.js';
import type { CodeLanguage, RunCase } from './code-quiz.schema.js';
import type { Problem } from './problems.repository.js';
import { runCases, type CaseResult } from './test-runner.js';

/**
 * POST /run: the code once per test case (the request's cases, then the problem's stored
 * ones, hidden included), the contract's top-level fields from the first failing case (or the
 * last one when all pass), and a row in `runs` when the run is for a problem.
 *
 * Hidden tests show only passed / exit code / time: their input, expected output and also
 * what the program printed stay out of the reply, since a program that echoes its input would
 * otherwise reveal the hidden input.
 */

export interface RunRequestInput {
  code: string;
  language: CodeLanguage;
  cases: RunCase[];
  problem?: { problem: Problem; classId: number };
  caller: Caller;
  signal?: AbortSignal;
}

interface PlannedCase extends RunCase {
  hidden: boolean;
}

export async function runForCaller(runner: CodeRunner, activity: ActivityRepository, input: RunRequestInput) {
  const { problem } = input;
  if (problem && problem.problem.language !== input.language) {
    throw badRequest(`This problem is written in ${problem.problem.language}, not ${input.language}.`, undefined, 'language_mismatch');
  }
  const planned: PlannedCase[] = input.cases.map((c) => ({ ...c, hidden: false }));
  for (const t of problem?.problem.tests ?? []) planned.push({ stdin: t.stdin, expected: t.expected_stdout, hidden: t.hidden });
  // no case at all: one run without input, nothing to compare
  if (planned.length === 0) planned.push({ stdin: '', hidden: false });

  const results = await runCases(runner, input.language, input.code, planned, { signal: input.signal });
  const views = results.map((r, i) => caseView(r, planned[i]!));
  const firstFailing = views.find((v) => !v.passed);
  const top = firstFailing ?? views[views.length - 1]!;
  const passed = views.filter((v) => v.passed).length;

  let runId: number | null = null;
  if (problem) {
    const run: NewRun = {
      caller: input.caller,
      classId: problem.classId,
      problemId: problem.problem.problem_id,
      language: input.language,
      codeSha256: sha256(input.code),
      passed,
      total: views.length,
      status: statusOf(results),
      runtimeMs: results.reduce((n, r) => n + r.runtimeMs, 0),
    };
    runId = await activity.addRun(run);
  }
  return {
    stdout: top.stdout,
    stderr: top.stderr,
    exitCode: top.exitCode,
    runtimeMs: top.runtimeMs,
    results: views,
    passed,
    total: views.length,
    run_id: runId,
  };
}

export function statusOf(results: CaseResult[]): NewRun['status'] {
  if (results.length > 0 && results.every((r) => r.passed)) return 'passed';
  if (results.some((r) => r.timedOut)) return 'timed_out';
  if (results.some((r) => r.exitCode !== 0)) return 'error';
  return 'failed';
}

export function sha256(code: string): string {
  return crypto.createHash('sha256').update(code, 'utf8').digest('hex');
}

function caseView(r: CaseResult, c: PlannedCase) {
  return {
    passed: r.passed,
    hidden: c.hidden,
    stdin: c.hidden ? null : c.stdin,
    expected_stdout: c.hidden ? null : (c.expected ?? null),
    stdout: c.hidden ? '' : r.stdout,
    stderr: c.hidden ? '' : r.stderr,
    exitCode: r.exitCode,
    runtimeMs: r.runtimeMs,
    timed_out: r.timedOut,
    output_truncated: r.outputTruncated,
  };
}
