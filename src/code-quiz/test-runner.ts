import type { CodeRunner, RunLimits, RunResult } from '../code-runner/types.js';
import { AppError } from '../http/errors.js';
import type { CodeLanguage, RunCase } from './code-quiz.schema.js';

/**
 * Runs a program once per test case through the runner and compares outputs. Used by POST /run,
 * by problem saving (the reference solution must pass) and by the hint checks (a wrong line
 * must fail). Outputs are compared line by line with trailing spaces and trailing blank lines
 * ignored: a child should not fail a test for an invisible space.
 */

export interface CaseResult {
  passed: boolean;
  stdout: string;
  stderr: string;
  exitCode: number;
  runtimeMs: number;
  timedOut: boolean;
  outputTruncated: boolean;
}

export interface TestRunOptions {
  /** stop at the first failing case (hint checks only need to know that one fails) */
  stopAtFirstFailure?: boolean;
  limits?: Partial<RunLimits>;
  signal?: AbortSignal;
}

export async function runCases(runner: CodeRunner, language: CodeLanguage, code: string, cases: RunCase[], opts: TestRunOptions = {}): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    const r = await runner.run({ language, code, stdin: c.stdin, limits: opts.limits }, opts.signal);
    const result = judge(r, c.expected);
    results.push(result);
    if (opts.stopAtFirstFailure && !result.passed) break;
  }
  return results;
}

/** A case passes when the program ended normally (exit 0, in time, output not cut) with the expected output. */
export function judge(r: RunResult, expected: string | undefined): CaseResult {
  const ranWell = r.exitCode === 0 && !r.timedOut && !r.outputTruncated && r.signal === null;
  return {
    passed: ranWell && (expected === undefined || sameOutput(r.stdout, expected)),
    stdout: r.stdout,
    stderr: r.stderr,
    exitCode: r.exitCode,
    runtimeMs: Math.round(r.runtimeMs),
    timedOut: r.timedOut,
    outputTruncated: r.outputTruncated,
  };
}

export function sameOutput(actual: string, expected: string): boolean {
  return canonical(actual) === canonical(expected);
}

function canonical(s: string): string {
  return s
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n')
    .replace(/\n+$/, '');
}

/**
 * Runs `fn`, waiting and trying again while the runner's queue is full (429): background checks
 * (problem saving) are not a child waiting, so they queue politely instead of failing.
 */
export async function whenRunnerFree<T>(fn: () => Promise<T>, attempts = 20): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 429 || i >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 100 * Math.min(i, 10)));
    }
  }
}

/**
 * 503 with the runner's own code and the package to install when it cannot run code (no
 * bubblewrap, no user namespaces, Piston unreachable): code never runs unsandboxed.
 */
export async function assertRunnerReady(runner: CodeRunner): Promise<void> {
  const h = await runner.health();
  if (h.ok) return;
  const install = h.install ? ` Install it with: ${h.install}` : '';
  throw new AppError(503, h.code, `${h.message}${install}`, h.install ? { install: h.install } : undefined);
}
