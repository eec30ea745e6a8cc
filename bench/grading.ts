/**
 * Grader accuracy on a labelled file (offline, no AI judge):
 *   npx tsx bench/grading.ts [file]        (default ../shared/data/grading-dev.jsonl from the repo root)
 * Prints 3-class accuracy, the confusion matrix, the severe-error rate (a correct answer graded
 * wrong or a wrong answer graded correct) and every misgraded case; exits 1 when a target is missed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { gradeAnswer, type AnswerStatus } from '../src/quiz/grading/grader.js';

const TARGET_ACCURACY = 0.93;
const TARGET_SEVERE = 0.01;
const STATUSES: AnswerStatus[] = ['correct', 'almost', 'wrong'];

const caseSchema = z.object({
  id: z.string().optional(),
  question: z.string().optional(),
  expected: z.string(),
  user: z.string(),
  label: z.enum(['correct', 'almost', 'wrong']),
  note: z.string().optional(),
});

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.resolve(process.argv[2] ?? path.join(root, '..', 'shared', 'data', 'grading-dev.jsonl'));
if (!fs.existsSync(file)) {
  console.error(`Labelled file not found: ${file}`);
  process.exit(2);
}

const cases = fs
  .readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line, i) => {
    const parsed = caseSchema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`line ${i + 1}: ${parsed.error.message}`);
    return parsed.data;
  });

const matrix: Record<AnswerStatus, Record<AnswerStatus, number>> = {
  correct: { correct: 0, almost: 0, wrong: 0 },
  almost: { correct: 0, almost: 0, wrong: 0 },
  wrong: { correct: 0, almost: 0, wrong: 0 },
};
const misgraded: string[] = [];
let right = 0;
let severe = 0;
const started = performance.now();
for (const [i, c] of cases.entries()) {
  const r = gradeAnswer({ expected: c.expected, user: c.user, question: c.question });
  matrix[c.label][r.status]++;
  if (r.status === c.label) {
    right++;
    continue;
  }
  const isSevere = (c.label === 'correct' && r.status === 'wrong') || (c.label === 'wrong' && r.status === 'correct');
  if (isSevere) severe++;
  misgraded.push(
    `${isSevere ? 'SEVERE ' : ''}${c.id ?? `#${i + 1}`}: expected ${JSON.stringify(c.expected)} user ${JSON.stringify(c.user)} ` +
      `label ${c.label} got ${r.status} (${r.similarity}) ${c.note ? `[${c.note}] ` : ''}- ${r.reason}`,
  );
}
const elapsed = performance.now() - started;

const accuracy = cases.length > 0 ? right / cases.length : 0;
const severeRate = cases.length > 0 ? severe / cases.length : 0;
console.log(`Grading bench: ${cases.length} cases from ${file}`);
console.log(`3-class accuracy: ${accuracy.toFixed(3)} (target >= ${TARGET_ACCURACY})`);
console.log(`severe errors:    ${severe} = ${(severeRate * 100).toFixed(2)}% (target <= ${TARGET_SEVERE * 100}%)`);
console.log(`time:             ${elapsed.toFixed(1)} ms (${((elapsed / Math.max(1, cases.length)) * 1000).toFixed(0)} us per answer)`);
console.log('\nconfusion matrix (rows: label, columns: graded)');
console.log(`${'label'.padEnd(10)}${STATUSES.map((s) => s.padStart(9)).join('')}`);
for (const label of STATUSES) console.log(`${label.padEnd(10)}${STATUSES.map((s) => String(matrix[label][s]).padStart(9)).join('')}`);
if (misgraded.length > 0) {
  console.log(`\nmisgraded (${misgraded.length}):`);
  for (const line of misgraded) console.log(`  ${line}`);
}
const ok = accuracy >= TARGET_ACCURACY && severeRate <= TARGET_SEVERE;
console.log(`\n${ok ? 'PASS' : 'FAIL'}: targets ${ok ? 'met' : 'missed'}`);
process.exit(ok ? 0 : 1);
