import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginExpert, startTestApp, type Agent, type TestApp } from '../helpers/app.js';
import { lcsPairs, nextStep, normalizeWhitespace, referenceSteps, substituteLine } from '../../src/code-quiz/align.js';
import { mutateLine, solutionNames, stripStrings } from '../../src/code-quiz/mutations.js';
import { isOneLine } from '../../src/code-quiz/suggest.service.js';
import { byKindInTurn } from '../../src/code-quiz/hints.service.js';
import { sameOutput } from '../../src/code-quiz/test-runner.js';
import { COUNT_PY, SUM_JS, createClass, createProblem } from './factories.js';

const SOLUTION = COUNT_PY.solution;

describe('alignment (pure)', () => {
  it('finds the first missing reference line at or after the cursor', () => {
    expect(nextStep(SOLUTION, '', 1, 'python')).toEqual({ kind: 'line', line: { index: 0, text: 'n = int(input())' } });
    expect(nextStep(SOLUTION, 'n=int(input())\n', 2, 'python')).toMatchObject({ line: { index: 1 } });
    // a cursor above the child's matched lines still asks for the first missing step after them
    expect(nextStep(SOLUTION, 'n = int(input())\n\n    print(i)\n', 2, 'python')).toMatchObject({ line: { index: 1 } });
    // the cursor after a matched later line: the missing earlier step is still offered
    expect(nextStep(SOLUTION, 'n = int(input())\n    print(i)\n', 3, 'python')).toMatchObject({ line: { index: 1 } });
    // a wrong version of a line counts as missing
    expect(nextStep(SOLUTION, 'n = int(input())\nfor i in range(1, n):\n', 3, 'python')).toMatchObject({ line: { index: 1 } });
    expect(nextStep(SOLUTION, SOLUTION, 3, 'python')).toEqual({ kind: 'complete' });
    // comments and blank lines are never steps
    expect(referenceSteps('# read\nx = 1\n\n// no\n', 'python').map((s) => s.index)).toEqual([1, 3]);
    expect(referenceSteps('// read\nlet x = 1;\n', 'javascript').map((s) => s.index)).toEqual([1]);
  });

  it('computes a longest common subsequence and substitutes lines', () => {
    expect(lcsPairs(['a', 'b', 'c'], ['a', 'x', 'c'])).toEqual([[0, 0], [2, 2]]);
    expect(substituteLine('a\nb\nc', 1, 'B')).toBe('a\nB\nc');
  });

  it('compares outputs ignoring trailing spaces and final newlines only', () => {
    expect(sameOutput('1\n2  \n\n', '1\n2')).toBe(true);
    expect(sameOutput('1 2', '12')).toBe(false);
    expect(sameOutput('\n1', '1')).toBe(false);
  });
});

describe('novice mutations (pure)', () => {
  const steps = referenceSteps(SOLUTION, 'python');
  it('makes the typical beginner mistakes of a line', () => {
    const loop = mutateLine(steps[1]!, steps, 'python', SOLUTION);
    expect(loop).toContainEqual({ text: 'for i in range(1, n):', kind: 'off_by_one' });
    expect(loop).toContainEqual({ text: 'for i in range(1, n + 1)', kind: 'missing_colon' });
    expect(loop.some((m) => m.kind === 'line_too_early' && m.text === 'print(i)')).toBe(true);
    const show = mutateLine(steps[2]!, steps, 'python', SOLUTION);
    expect(show).toContainEqual({ text: '    return i', kind: 'print_vs_return' });
    expect(show).toContainEqual({ text: '    print(n)', kind: 'wrong_variable' });
    const cmp = mutateLine({ index: 0, text: 'if a < b:' }, [], 'python', 'a = 1\nb = 2\nc = 3\nif a < b:\n');
    expect(cmp).toContainEqual({ text: 'if a <= b:', kind: 'comparison' });
    // a name the line does not use yet (a name it already uses would only repeat it)
    expect(cmp).toContainEqual({ text: 'if c < b:', kind: 'wrong_variable' });
    const eq = mutateLine({ index: 0, text: 'if (a === b) {' }, [], 'javascript', 'if (a === b) {');
    expect(eq).toContainEqual({ text: 'if (a = b) {', kind: 'assign_vs_equal' });
    const ret = mutateLine({ index: 0, text: '  return a + b;' }, [], 'javascript', 'function f(a, b) {\n  return a + b;\n}');
    expect(ret).toContainEqual({ text: '  console.log(a + b);', kind: 'print_vs_return' });
    expect(ret).toContainEqual({ text: '  return a - b;', kind: 'operator' });
  });

  it('never repeats the line itself or another mutant, even after whitespace normalisation', () => {
    for (const step of steps) {
      const keys = mutateLine(step, steps, 'python', SOLUTION).map((m) => normalizeWhitespace(m.text));
      expect(keys).not.toContain(normalizeWhitespace(step.text));
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it('tries one mutant of each kind before a second of the same kind', () => {
    const m = (text: string, kind: 'off_by_one' | 'operator' | 'line_too_early') => ({ text, kind });
    expect(byKindInTurn([m('a', 'off_by_one'), m('b', 'off_by_one'), m('c', 'operator'), m('d', 'line_too_early')]).map((x) => x.text)).toEqual(['a', 'c', 'd', 'b']);
  });

  it('ignores operators inside strings and knows which names are variables', () => {
    expect(stripStrings('print("a < b")')).toBe('print("     ")');
    expect(solutionNames(SOLUTION, 'python')).toEqual(['n', 'i']);
  });

  it('tells one line from several', () => {
    expect(isOneLine('for i in range(3):', 'python')).toBe(true);
    expect(isOneLine('for i in range(3): print(i)', 'python')).toBe(false);
    expect(isOneLine('a = 1; b = 2', 'python')).toBe(false);
    expect(isOneLine('x = 1\ny = 2', 'python')).toBe(false);
    expect(isOneLine('print("a;b")', 'python')).toBe(true);
    expect(isOneLine('for (let i = 0; i < n; i++) {', 'javascript')).toBe(true);
    expect(isOneLine('let a = 1; let b = 2;', 'javascript')).toBe(false);
  });
});

describe('the offline generator, checked in the sandbox', () => {
  let t: TestApp;
  let expert: Agent;
  let classId: number;
  beforeAll(async () => {
    t = await startTestApp({ CODE_CALLS_PER_MINUTE: '0' });
    const fam = await createFamily(t);
    expert = await loginExpert(t.agent(), fam.expert.code);
    classId = await createClass(expert);
  });
  afterAll(() => t.close());

  for (const problem of [COUNT_PY, SUM_JS]) {
    it(`${problem.language}: at every step the suggestion is the next reference line and every distractor fails a test`, async () => {
      const problemId = await createProblem(expert, classId, problem);
      const lines = problem.solution.split('\n');
      const steps = referenceSteps(problem.solution, problem.language);
      let distractorsChecked = 0;
      for (let k = 0; k < steps.length; k++) {
        // the child has written the first k steps; the cursor is on the next line
        const code = lines.slice(0, steps[k]!.index).join('\n') + '\n';
        const res = await expert.post('/suggest').send({ problemId, code, language: problem.language, cursorPosition: { line: steps[k]!.index + 1, column: 0 } });
        expect(res.status).toBe(200);
        expect(res.body.suggestion).toBe(steps[k]!.text);
        expect(res.body.distractors.length).toBeGreaterThanOrEqual(1);
        for (const d of res.body.distractors as string[]) {
          expect(normalizeWhitespace(d)).not.toBe(normalizeWhitespace(res.body.suggestion));
          expect(d).not.toContain('\n');
          const run = await expert.post('/run').send({ code: substituteLine(problem.solution, steps[k]!.index, d), language: problem.language, testCases: [], problemId });
          expect(run.status).toBe(200);
          expect(run.body.passed, `${d} should fail a test`).toBeLessThan(run.body.total);
          distractorsChecked++;
        }
      }
      expect(distractorsChecked).toBeGreaterThanOrEqual(steps.length);
    });
  }
});
