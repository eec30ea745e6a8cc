/**
 * Grader accuracy and speed on the labelled sets (offline, no AI judge):
 *   npx tsx bench/grading.ts                 train and dev from test/fixtures/grading (copies of ../shared/data's grading-train.jsonl, grading-dev.jsonl)
 *   npx tsx bench/grading.ts a.jsonl b.jsonl  any labelled files
 *   --list-dev                                also list the dev set's misgraded cases (train's are always listed)
 * The train set is also reported in two parts by story: a design part (its misgrades listed) and a
 * held-out part, every 4th story, whose figures are printed but whose misgrades never are: a rule
 * designed on the listed misgrades that also lifts the held-out figure generalizes, one that lifts
 * only the design part memorizes.
 * For each set: 3-class accuracy, severe-error rate (correct graded wrong or wrong graded correct),
 * the 3x3 confusion matrix, and median / p99 time per answer after a warm-up pass. Before that,
 * the start-up cost: time and memory to load the grader and its resources in this fresh process.
 * Exits 1 when a target is missed on any set.
 */
import fs from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const TARGET_ACCURACY = 0.93;
const TARGET_SEVERE = 0.01;
const TARGET_MEDIAN_MS = 1;
const TARGET_P99_MS = 5;
const STATUSES = ['correct', 'almost', 'wrong'] as const;
type Status = (typeof STATUSES)[number];

const caseSchema = z.object({
  id: z.string().optional(),
  question: z.string().optional(),
  expected: z.string(),
  user: z.string(),
  label: z.enum(STATUSES),
  note: z.string().optional(),
});
type Case = z.infer<typeof caseSchema>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const listDev = args.includes('--list-dev');
const fileArgs = args.filter((a) => !a.startsWith('--'));
const files = fileArgs.length > 0 ? fileArgs.map((f) => path.resolve(f)) : ['train', 'dev'].map((s) => path.join(root, 'test', 'fixtures', 'grading', `grading-${s}.jsonl`));

/**
 * The train set's stories, by the id of each one's first case (the file has no story field; these
 * are where its questions move to new characters). Every 4th story is held out.
 */
const TRAIN_STORY_STARTS = [1, 13, 24, 33, 42, 53, 67, 78, 90, 100, 110, 121, 133, 144, 155, 166, 174, 182, 193, 203, 212, 223, 236, 246, 258, 269, 280, 291];

// Start-up: everything the grader loads (WordNet index, lemmatizer, tables), in this fresh process.
const mem0 = process.memoryUsage();
const t0 = performance.now();
const { gradeAnswer, gradingResources } = await import('../src/quiz/grading/grader.js');
const resources = gradingResources();
const startupMs = performance.now() - t0;
const mem1 = process.memoryUsage();
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
console.log(`start-up: ${startupMs.toFixed(0)} ms to import the grader and load its resources (target <= 1500 ms)`);
console.log(`  of which the WordNet index (with its exception lists): ${resources.wordnet.ms.toFixed(0)} ms${resources.wordnet.built ? ' (built now: first run)' : ''}`);
console.log(`  memory: +${mb(mem1.heapUsed - mem0.heapUsed)} heap, +${mb(mem1.rss - mem0.rss)} RSS (target <= 150 MB)`);

let failed = startupMs > 1500 || mem1.rss - mem0.rss > 150e6;
for (const file of files) {
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
      if (!parsed.success) throw new Error(`${file} line ${i + 1}: ${parsed.error.message}`);
      return parsed.data;
    });
  const isDev = path.basename(file).includes('dev');
  if (!runSet(path.basename(file), cases, false)) failed = true;
  const held = heldOut(cases);
  if (held) {
    runSet(`${path.basename(file)} design part (${held.stories} stories)`, cases.filter((c) => !held.ids.has(c.id ?? '')), !isDev || listDev);
    runSet(`${path.basename(file)} held-out part (every 4th story, misgrades not listed)`, cases.filter((c) => held.ids.has(c.id ?? '')), false);
  } else if (!isDev || listDev) runSet(`${path.basename(file)} misgrades`, cases, true);
}
console.log(`\n${failed ? 'FAIL: targets missed' : 'PASS: targets met'}`);
process.exit(failed ? 1 : 0);

function heldOut(cases: Case[]): { ids: Set<string>; stories: number } | undefined {
  if (!cases.every((c) => /^tr-\d+$/.test(c.id ?? ''))) return undefined;
  const ids = new Set<string>();
  for (const c of cases) {
    const n = Number((c.id as string).slice(3));
    const story = TRAIN_STORY_STARTS.filter((start) => start <= n).length; // 1-based
    if (story % 4 === 0) ids.add(c.id as string);
  }
  return { ids, stories: TRAIN_STORY_STARTS.length - Math.floor(TRAIN_STORY_STARTS.length / 4) };
}

function runSet(name: string, cases: Case[], list: boolean): boolean {
  const grade = (c: Case) => gradeAnswer({ expected: c.expected, user: c.user, question: c.question });
  // warm-up pass: the words of this set are looked up once (as a server meets them)
  for (const c of cases) grade(c);
  const times: number[] = [];
  const matrix = Object.fromEntries(STATUSES.map((l) => [l, { correct: 0, almost: 0, wrong: 0 }])) as Record<Status, Record<Status, number>>;
  const misgraded: string[] = [];
  let right = 0;
  let severe = 0;
  const steady: number[] = [];
  for (const [i, c] of cases.entries()) {
    const started = performance.now();
    const r = grade(c);
    times.push(performance.now() - started);
    // the same answer 5 more times, its median kept: a shared machine's pre-emption and a GC pause land on one run, not on the answer
    const again = Array.from({ length: 5 }, () => {
      const s = performance.now();
      grade(c);
      return performance.now() - s;
    }).sort((a, b) => a - b);
    steady.push(again[2] as number);
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
  times.sort((a, b) => a - b);
  steady.sort((a, b) => a - b);
  const quantile = (list: number[], q: number) => list[Math.min(list.length - 1, Math.floor(q * list.length))] ?? 0;
  const at = (q: number) => quantile(times, q);
  const accuracy = cases.length > 0 ? right / cases.length : 0;
  const severeRate = cases.length > 0 ? severe / cases.length : 0;
  console.log(`\n=== ${name}: ${cases.length} cases`);
  console.log(`3-class accuracy: ${accuracy.toFixed(3)} (target >= ${TARGET_ACCURACY})`);
  console.log(`severe errors:    ${severe} = ${(severeRate * 100).toFixed(2)}% (target <= ${TARGET_SEVERE * 100}%)`);
  console.log(`time per answer:  median ${at(0.5).toFixed(3)} ms, p99 ${at(0.99).toFixed(3)} ms after warm-up, one run each (targets < ${TARGET_MEDIAN_MS} / < ${TARGET_P99_MS} ms)`);
  console.log(`                  median ${quantile(steady, 0.5).toFixed(3)} ms, p99 ${quantile(steady, 0.99).toFixed(3)} ms as each answer's median of 5 more runs (load average now ${loadavg()[0]?.toFixed(1)})`);
  console.log('confusion matrix (rows: label, columns: graded)');
  console.log(`${'label'.padEnd(10)}${STATUSES.map((s) => s.padStart(9)).join('')}`);
  for (const label of STATUSES) console.log(`${label.padEnd(10)}${STATUSES.map((s) => String(matrix[label][s]).padStart(9)).join('')}`);
  if (list && misgraded.length > 0) {
    console.log(`misgraded (${misgraded.length}):`);
    for (const line of misgraded) console.log(`  ${line}`);
  }
  // speed targets on the steady figures: on a shared machine one run's p99 measures the neighbours
  return accuracy >= TARGET_ACCURACY && severeRate <= TARGET_SEVERE && quantile(steady, 0.5) < TARGET_MEDIAN_MS && quantile(steady, 0.99) < TARGET_P99_MS;
}
