import { normalizeWhitespace, type ReferenceLine } from './align.js';
import type { CodeLanguage } from './code-quiz.schema.js';

/**
 * Pure generation of plausible wrong versions of one solution line, the way beginners go wrong.
 * Nothing here decides that a mutant IS wrong: problem saving runs each one in place of the
 * real line against the tests and keeps only those that fail (hints.service.ts).
 *
 * Indentation-only changes are not generated although beginners make them: on a button a
 * child cannot see the difference, and distractors must differ from the suggestion after
 * whitespace is normalised.
 */

export const MUTATION_KINDS = [
  'comparison', // < vs <=, > vs >=
  'off_by_one', // range(1, n) vs range(1, n + 1), a number one off
  'wrong_variable', // another name from the solution
  'assign_vs_equal', // = vs ==
  'print_vs_return',
  'operator', // + vs -, * vs +
  'missing_colon', // Python block header without ':'
  'line_too_early', // a later line of the solution written too early
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface Mutant {
  text: string;
  kind: MutationKind;
}

const PY_WORDS = new Set(
  'and as assert break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return True try while with yield print input int str float len range list dict set sum min max abs round sorted split strip append'.split(' '),
);
const JS_WORDS = new Set(
  'break case catch class const continue debugger default delete do else export extends false finally for function if import in instanceof let new null return super switch this throw true try typeof undefined var void while with yield console log Math Number String parseInt parseFloat length push split trim require process stdin readFileSync fs toString join map filter'.split(' '),
);

/** Every candidate mutant of `line`, most typical first, without duplicates or the line itself. */
export function mutateLine(line: ReferenceLine, steps: ReferenceLine[], language: CodeLanguage, solution: string): Mutant[] {
  const src = line.text;
  const indent = /^\s*/.exec(src)![0];
  const out: Mutant[] = [];
  const add = (text: string, kind: MutationKind) => out.push({ text, kind });

  // comparisons: only the first one, both directions
  const cmp = /(<=|>=|<(?![<=])|>(?![>=]))/.exec(stripStrings(src));
  if (cmp) {
    const swap: Record<string, string> = { '<=': '<', '>=': '>', '<': '<=', '>': '>=' };
    add(replaceAt(src, cmp.index, cmp[0], swap[cmp[0]]!), 'comparison');
  }

  // off by one: range bounds, then the first integer literal
  const range = /range\(([^()]*)\)/.exec(src);
  if (range && language === 'python') {
    const args = range[1]!.split(',').map((a) => a.trim());
    const last = args[args.length - 1]!;
    const shifted = /\+\s*1$/.test(last) ? last.replace(/\s*\+\s*1$/, '') : `${last} + 1`;
    add(src.replace(range[0], `range(${[...args.slice(0, -1), shifted].join(', ')})`), 'off_by_one');
    if (args.length === 1) add(src.replace(range[0], `range(1, ${last})`), 'off_by_one');
  }
  const num = /(?<![\w.])(\d+)(?![\w.])/.exec(stripStrings(src));
  if (num) {
    const n = Number(num[1]);
    add(replaceAt(src, num.index, num[1]!, String(n + 1)), 'off_by_one');
    if (n > 0) add(replaceAt(src, num.index, num[1]!, String(n - 1)), 'off_by_one');
  }

  // = vs == (and === in JavaScript)
  const code = stripStrings(src);
  const eq = /(===|==)/.exec(code);
  if (eq) add(replaceAt(src, eq.index, eq[0], '='), 'assign_vs_equal');
  else {
    const assign = /(?<![=!<>+\-*/%])=(?!=)/.exec(code);
    if (assign && !/^\s*(for|def|function)\b/.test(src)) add(replaceAt(src, assign.index, '=', '=='), 'assign_vs_equal');
  }

  // print vs return
  const ret = /^(\s*)return\s+(.+?);?\s*$/.exec(src);
  const show = language === 'python' ? /^(\s*)print\((.*)\)\s*$/.exec(src) : /^(\s*)console\.log\((.*)\);?\s*$/.exec(src);
  if (ret) add(language === 'python' ? `${ret[1]}print(${ret[2]})` : `${ret[1]}console.log(${ret[2]});`, 'print_vs_return');
  else if (show) add(`${show[1]}return ${show[2]}${language === 'javascript' ? ';' : ''}`, 'print_vs_return');

  // a wrong variable: the first name of the line swapped for another name of the solution
  const names = solutionNames(solution, language);
  const nameRe = /\b[A-Za-z_]\w*\b/g;
  for (let m = nameRe.exec(code); m; m = nameRe.exec(code)) {
    if (!names.includes(m[0])) continue;
    const other = names.find((n) => n !== m![0] && !new RegExp(`\\b${n}\\b`).test(code));
    if (other) {
      add(replaceAt(src, m.index, m[0], other), 'wrong_variable');
      break;
    }
  }

  // + vs -, * vs +
  const op = /(?<![+\-*/=<>!])([+\-*])(?![+\-*/=])/.exec(code);
  if (op) add(replaceAt(src, op.index, op[1]!, op[1] === '+' ? '-' : '+'), 'operator');

  if (language === 'python' && /:\s*$/.test(src) && /^\s*(for|while|if|elif|else|def)\b/.test(src)) {
    add(src.replace(/:\s*$/, ''), 'missing_colon');
  }

  // a later line too early (kept at this line's indentation, as a child would type it here)
  const later = steps.find((s) => s.index > line.index && normalizeWhitespace(s.text) !== normalizeWhitespace(src));
  if (later) add(indent + later.text.trim(), 'line_too_early');

  const seen = new Set([normalizeWhitespace(src)]);
  return out.filter((m) => {
    const key = normalizeWhitespace(m.text);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Names assigned or used in the solution that are not keywords or well-known builtins. */
export function solutionNames(solution: string, language: CodeLanguage): string[] {
  const words = language === 'python' ? PY_WORDS : JS_WORDS;
  const found: string[] = [];
  const re = /\b[A-Za-z_]\w*\b/g;
  const code = stripStrings(solution);
  for (let m = re.exec(code); m; m = re.exec(code)) {
    // skip attribute names (x.append): they are not variables
    if (code[m.index - 1] === '.') continue;
    if (!words.has(m[0]) && !found.includes(m[0])) found.push(m[0]);
  }
  return found;
}

/** The line with string literals blanked out (same length), so operators inside text are ignored. */
export function stripStrings(line: string): string {
  return line.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, (s) => s[0] + ' '.repeat(Math.max(0, s.length - 2)) + s[s.length - 1]);
}

function replaceAt(s: string, index: number, from: string, to: string): string {
  return s.slice(0, index) + to + s.slice(index + from.length);
}
