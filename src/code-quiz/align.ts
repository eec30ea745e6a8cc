import type { CodeLanguage } from './code-quiz.schema.js';

/**
 * Pure alignment of a child's code with the reference solution: which reference line is the
 * next step. Lines are compared after removing all whitespace (so `x=1` matches `x = 1`; the
 * indentation of Python blocks is checked by the tests, not here). Blank lines and comment-only
 * lines never count as steps.
 */

export interface ReferenceLine {
  /** 0-based index into the solution's lines */
  index: number;
  /** the line as written in the solution (indentation kept, trailing spaces removed) */
  text: string;
}

export type NextStep =
  | { kind: 'line'; line: ReferenceLine }
  /** every step of the solution is in the child's code: time to run the tests */
  | { kind: 'complete' };

export function splitLines(code: string): string[] {
  return code.replace(/\r\n?/g, '\n').split('\n');
}

/** The whitespace-free form two lines are compared by. */
export function normalizeLine(line: string): string {
  return line.replace(/\s+/g, '');
}

/** The same line after collapsing whitespace runs and trimming (how choices are told apart). */
export function normalizeWhitespace(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

export function isStep(line: string, language: CodeLanguage): boolean {
  const t = line.trim();
  if (t === '') return false;
  if (language === 'python') return !t.startsWith('#');
  return !t.startsWith('//') && !/^\/\*.*\*\/$/.test(t);
}

/** The solution's steps: its non-blank, non-comment lines. */
export function referenceSteps(solution: string, language: CodeLanguage): ReferenceLine[] {
  return splitLines(solution)
    .map((text, index) => ({ index, text: text.replace(/\s+$/, '') }))
    .filter((l) => isStep(l.text, language));
}

/**
 * The first reference step missing from the child's code at or after the cursor (1-based line),
 * else the first missing one before it, else `complete`. "Missing" means not matched by the
 * longest common subsequence of the two line lists, so a reordered or wrong line counts as
 * missing and extra lines of the child's do not shift the match.
 */
export function nextStep(solution: string, code: string, cursorLine: number, language: CodeLanguage): NextStep {
  const ref = referenceSteps(solution, language);
  const child = splitLines(code)
    .map((text, index) => ({ index, text, key: normalizeLine(text) }))
    .filter((l) => isStep(l.text, language));
  const pairs = lcsPairs(
    ref.map((r) => normalizeLine(r.text)),
    child.map((c) => c.key),
  );
  const matchedRef = new Set(pairs.map(([r]) => r));
  // the cursor's place in the reference: just after the last reference step matched by a
  // child line above or on the cursor's line
  const cursorIndex = cursorLine - 1;
  let from = 0;
  for (const [r, c] of pairs) if (child[c]!.index <= cursorIndex) from = r + 1;
  const missing = ref.map((_, i) => i).filter((i) => !matchedRef.has(i));
  const pick = missing.find((i) => i >= from) ?? missing[0];
  return pick === undefined ? { kind: 'complete' } : { kind: 'line', line: ref[pick]! };
}

/** Index pairs [a, b] of one longest common subsequence of two string lists, in order. */
export function lcsPairs(a: string[], b: string[]): [number, number][] {
  const n = a.length;
  const m = b.length;
  // table[i][j] = LCS length of a[i..] and b[j..]
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/** The solution with line `index` replaced (used to prove a wrong line really is wrong). */
export function substituteLine(solution: string, index: number, line: string): string {
  const lines = splitLines(solution);
  lines[index] = line;
  return lines.join('\n');
}
