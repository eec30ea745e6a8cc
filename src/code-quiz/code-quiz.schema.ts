import { z } from 'zod';
import { LANGUAGES, type Language } from '../code-runner/types.js';
import { childIdSchema } from '../http/ids.js';

/** Request and response schemas of the code quiz routes (one per endpoint, shared with OpenAPI). */

export type CodeLanguage = Language;

export const CODE_LIMITS = {
  /** a child's program or a reference solution (characters) */
  code: 20_000,
  /** one test's stdin or expected stdout */
  testText: 10_000,
  /** test cases per /run request and per problem */
  testCases: 20,
  title: 120,
  prompt: 4000,
  className: 100,
  classDescription: 1000,
  choice: 500,
  cursor: 100_000,
} as const;

const text = (max: number, what: string) => z.string({ error: `${what} must be text` }).max(max, `${what} must be at most ${max} characters`);
const name = (max: number, what: string) => text(max, what).trim().min(1, `${what} must not be empty`);

/** Path ids are integers, as the contract's problemId; anything else is a 400, never a lookup. */
const intId = (what: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,9}$/, `${what} must be a positive whole number`)
    .transform(Number);

export const languageSchema = z.enum(LANGUAGES, { error: `language must be one of: ${LANGUAGES.join(', ')}` });

export const classParams = z.object({ class_id: intId('class_id') });
export const enrolmentParams = z.object({ class_id: intId('class_id'), child_id: childIdSchema });
export const problemParams = z.object({ problem_id: intId('problem_id') });
export const eventParams = z.object({ event_id: intId('event_id') });
export const learnerChildParams = z.object({ child_id: childIdSchema });

export const classBody = z
  .object({
    name: name(CODE_LIMITS.className, 'name'),
    description: text(CODE_LIMITS.classDescription, 'description').optional(),
  })
  .strict();

export const classUpdateBody = classBody.partial().strict();

export const enrolmentBody = z.object({ child_id: childIdSchema }).strict();

export const problemTestSchema = z
  .object({
    stdin: text(CODE_LIMITS.testText, 'stdin').default(''),
    expected_stdout: text(CODE_LIMITS.testText, 'expected_stdout'),
    hidden: z.boolean({ error: 'hidden must be true or false' }).default(false),
  })
  .strict();

export const problemBody = z
  .object({
    title: name(CODE_LIMITS.title, 'title'),
    prompt: name(CODE_LIMITS.prompt, 'prompt'),
    language: languageSchema,
    starter_code: text(CODE_LIMITS.code, 'starter_code').default(''),
    // code is kept exactly as written (no trimming: indentation and line numbers matter)
    solution: text(CODE_LIMITS.code, 'solution').refine((s) => s.trim() !== '', 'solution must not be empty'),
    tests: z
      .array(problemTestSchema)
      .min(1, 'a problem needs at least one test')
      .max(CODE_LIMITS.testCases, `a problem has at most ${CODE_LIMITS.testCases} tests`),
  })
  .strict();

export type ProblemInput = z.output<typeof problemBody>;

/** One test case of /run: the service's own shape or the short `{input, output}` one. */
const runCase = z.union(
  [
    z.object({ stdin: text(CODE_LIMITS.testText, 'stdin').default(''), expected_stdout: text(CODE_LIMITS.testText, 'expected_stdout').optional() }).strict(),
    z.object({ input: text(CODE_LIMITS.testText, 'input').default(''), output: text(CODE_LIMITS.testText, 'output').optional() }).strict(),
  ],
  { error: 'each test case is {stdin, expected_stdout} or {input, output}' },
);

export interface RunCase {
  stdin: string;
  /** undefined: the case only runs the code (nothing to compare) */
  expected?: string;
}

const integerProblemId = z.number({ error: 'problemId must be a whole number' }).int('problemId must be a whole number').min(1).max(2_147_483_647);

export const runBody = z
  .object({
    code: text(CODE_LIMITS.code, 'code'),
    language: languageSchema,
    testCases: z
      .array(runCase, { error: 'testCases must be an array' })
      .max(CODE_LIMITS.testCases, `at most ${CODE_LIMITS.testCases} test cases per run`)
      .default([]),
    problemId: integerProblemId.optional(),
  })
  .strict()
  .transform((b) => ({
    ...b,
    cases: b.testCases.map((c): RunCase => ('input' in c ? { stdin: c.input, expected: c.output } : { stdin: c.stdin, expected: c.expected_stdout })),
  }));

const cursorInt = (what: string, min: number) =>
  z.number({ error: `${what} must be a whole number` }).int(`${what} must be a whole number`).min(min, `${what} must be at least ${min}`).max(CODE_LIMITS.cursor);

export const suggestBody = z
  .object({
    problemId: integerProblemId,
    code: text(CODE_LIMITS.code, 'code'),
    language: languageSchema,
    cursorPosition: z
      .object(
        {
          // 1-based line (as editors show it), 0-based column
          line: cursorInt('cursorPosition.line', 1),
          column: cursorInt('cursorPosition.column', 0),
        },
        { error: 'cursorPosition must be {line, column}' },
      )
      .strict(),
  })
  .strict();

export const answerBody = z.object({ choice: text(CODE_LIMITS.choice, 'choice') }).strict();

export const suggestResponse = z.object({
  suggestion: z.string(),
  distractors: z.array(z.string()),
  explanation: z.string(),
  event_id: z.number().int(),
  generator: z.string(),
  complete: z.boolean(),
});

export const runCaseResult = z.object({
  passed: z.boolean(),
  hidden: z.boolean(),
  stdin: z.string().nullable(),
  expected_stdout: z.string().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  exitCode: z.number().int(),
  runtimeMs: z.number().int(),
  timed_out: z.boolean(),
  output_truncated: z.boolean(),
});

export const runResponse = z.object({
  stdout: z.string(),
  stderr: z.string(),
  exitCode: z.number().int(),
  runtimeMs: z.number().int(),
  results: z.array(runCaseResult),
  passed: z.number().int(),
  total: z.number().int(),
  run_id: z.number().int().nullable(),
});
