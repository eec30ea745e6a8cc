import { expect } from 'vitest';
import { createFamily, loginChild, loginExpert, startTestApp, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';

/** Small factories for the code quiz tests (real routes, real sandbox). */

export const COUNT_PY = {
  title: 'Count up',
  prompt: 'Read a number n and print the numbers from 1 to n, one per line.',
  language: 'python' as const,
  starter_code: 'n = int(input())\n',
  solution: 'n = int(input())\nfor i in range(1, n + 1):\n    print(i)\n',
  tests: [
    { stdin: '3\n', expected_stdout: '1\n2\n3\n', hidden: false },
    { stdin: '1\n', expected_stdout: '1\n', hidden: false },
    { stdin: '5\n', expected_stdout: '1\n2\n3\n4\n5\n', hidden: true },
  ],
};

export const SUM_JS = {
  title: 'Add two numbers',
  prompt: 'Read two numbers, one per line, and print their sum.',
  language: 'javascript' as const,
  starter_code: "const lines = require('fs').readFileSync(0, 'utf8').split('\\n');\n",
  solution: "const lines = require('fs').readFileSync(0, 'utf8').split('\\n');\nconst a = Number(lines[0]);\nconst b = Number(lines[1]);\nconsole.log(a + b);\n",
  tests: [
    { stdin: '2\n3\n', expected_stdout: '5\n', hidden: false },
    { stdin: '10\n-4\n', expected_stdout: '6\n', hidden: true },
  ],
};

export async function createClass(expert: Agent, name = 'Coders'): Promise<number> {
  const res = await expert.post('/api/expert/classes').send({ name, description: 'Tuesday club' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.class.class_id as number;
}

export async function enrol(expert: Agent, classId: number, childId: string): Promise<void> {
  const res = await expert.post(`/api/expert/classes/${classId}/enrolments`).send({ child_id: childId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export async function createProblem(expert: Agent, classId: number, problem: object = COUNT_PY): Promise<number> {
  const res = await expert.post(`/api/expert/classes/${classId}/problems`).send(problem);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.problem.problem_id as number;
}

/**
 * The world most code-quiz route tests start from: a family whose child is enrolled in a class of
 * its expert with one saved problem, and a second family (its expert and child) that must be refused.
 */
export interface CodeQuizWorld {
  t: TestApp;
  fam: TestFamily;
  other: TestFamily;
  expert: Agent;
  otherExpert: Agent;
  child: Agent;
  otherChild: Agent;
  classId: number;
  problemId: number;
}

export async function codeQuizWorld(env: Record<string, string> = {}): Promise<CodeQuizWorld> {
  const t = await startTestApp(env);
  const fam = await createFamily(t);
  const other = await createFamily(t);
  const expert = await loginExpert(t.agent(), fam.expert.code);
  const otherExpert = await loginExpert(t.agent(), other.expert.code);
  const classId = await createClass(expert);
  await enrol(expert, classId, fam.child.child_id);
  const problemId = await createProblem(expert, classId);
  const child = await loginChild(t.agent(), fam);
  const otherChild = await loginChild(t.agent(), other);
  return { t, fam, other, expert, otherExpert, child, otherChild, classId, problemId };
}
