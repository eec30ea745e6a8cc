import type { CodeLanguage } from './code-quiz.schema.js';
import type { MutationKind } from './mutations.js';

/**
 * The offline explanation shown after the child picks: what the right line does, in words a
 * 7 to 11 year old reads, and one tip about the trap the first wrong choice was built on.
 */

export function explainStep(line: string, language: CodeLanguage, trapKinds: MutationKind[]): string {
  const tip = trapKinds.map((k) => tipFor(k, language)).find(Boolean);
  return tip ? `${describeLine(line, language)} ${tip}` : describeLine(line, language);
}

export const COMPLETE_SUGGESTION = 'Your code has every step. Press Run to test it!';
export const COMPLETE_EXPLANATION = 'All the steps are there. Running the tests shows whether each one works.';

export function describeLine(line: string, language: CodeLanguage): string {
  const t = line.trim();
  const assigned = /^(?:let |const |var )?([A-Za-z_]\w*)\s*=(?!=)/.exec(t)?.[1];
  const updated = /^([A-Za-z_]\w*)\s*([+\-*/])=/.exec(t);
  if (/^for\b/.test(t)) return 'This line repeats the steps under it, once for each value.';
  if (/^while\b/.test(t)) return 'This line repeats the steps under it as long as the check is true.';
  if (/^(if|elif|else if|} else if)\b/.test(t)) return 'This line checks something: the steps under it only run when the check is true.';
  if (/^(else|} else)\b/.test(t)) return 'This line says what to do when the check above was not true.';
  if (/^(def|function)\s+([A-Za-z_]\w*)/.test(t)) return `This line starts a function called ${/^(?:def|function)\s+([A-Za-z_]\w*)/.exec(t)![1]}.`;
  if (/^return\b/.test(t)) return 'This line hands the answer back to the code that asked for it.';
  if (/\binput\(|readFileSync|process\.stdin/.test(t)) return 'This line reads what was typed in.';
  if (/^(print\(|console\.log\()/.test(t)) return 'This line shows something on the screen.';
  if (updated) return `This line changes ${updated[1]} by ${updated[2] === '+' ? 'adding to it' : updated[2] === '-' ? 'taking away from it' : 'working it out again'}.`;
  if (assigned) return `This line puts a value into ${assigned}, so the program can use it later.`;
  if (t === '}' || t === '};') return language === 'javascript' ? 'This line closes the block that was opened with {.' : 'This is the next step.';
  return 'This is the next step of the solution.';
}

function tipFor(kind: MutationKind, language: CodeLanguage): string {
  const py = language === 'python';
  switch (kind) {
    case 'comparison':
      return 'Look closely: < means "smaller than", and <= means "smaller than or the same".';
    case 'off_by_one':
      return py ? 'Count carefully: range(1, 5) gives 1, 2, 3, 4 and stops before 5.' : 'Count carefully where the counting starts and where it stops.';
    case 'wrong_variable':
      return 'Check that you use the right name: each name holds a different value.';
    case 'assign_vs_equal':
      return 'One = puts a value into a name; == asks whether two things are the same.';
    case 'print_vs_return':
      return py
        ? 'print shows a value on the screen; return hands it back to the code that asked.'
        : 'console.log shows a value; return hands it back to the code that asked.';
    case 'operator':
      return 'Check the sign: + adds and - takes away.';
    case 'missing_colon':
      return 'In Python, a line that starts a block (for, if, while, def) ends with a colon.';
    case 'line_too_early':
      return 'One step at a time: the other line comes a bit later.';
  }
}
