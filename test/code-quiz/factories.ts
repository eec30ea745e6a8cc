import { expect } from 'vitest';
import type { Agent } from '../helpers/app.js';

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
