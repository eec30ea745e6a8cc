import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAdmin, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { COUNT_PY, SUM_JS, createProblem, codeQuizWorld } from './factories.js';

let t: TestApp;
let fam: TestFamily;
let other: TestFamily;
let expert: Agent;
let otherExpert: Agent;
let child: Agent;
let otherChild: Agent;
let classId: number;
let problemId: number;

beforeAll(async () => {
  ({ t, fam, other, expert, otherExpert, child, otherChild, classId, problemId } = await codeQuizWorld());
});
afterAll(() => t.close());

const problemRow = async (id: number) => (await t.db.first<{ title: string; solution: string; hints_json: string }>('SELECT * FROM code_problems WHERE id = ?', [id]));
const testRows = async (id: number) => await t.db.all('SELECT stdin, expected_stdout, hidden FROM code_problem_tests WHERE problem_id = ? ORDER BY position', [id]);

describe('POST /api/expert/classes/{class_id}/problems', () => {
  it('stores a problem whose solution passes, with its tests and proven wrong lines', async () => {
    const row = (await problemRow(problemId))!;
    expect(row.title).toBe('Count up');
    expect(await testRows(problemId)).toEqual(COUNT_PY.tests.map((x) => ({ ...x, hidden: x.hidden ? 1 : 0 })));
    const hints = JSON.parse(row.hints_json) as { line: number; distractors: { text: string }[] }[];
    expect(hints.map((h) => h.line)).toEqual([0, 1, 2]);
    expect(hints[1]!.distractors.length).toBeGreaterThanOrEqual(2);
  });

  it('saves a JavaScript problem too', async () => {
    const id = await createProblem(expert, classId, SUM_JS);
    const res = await expert.get(`/api/expert/problems/${id}`);
    expect(res.body.problem).toMatchObject({ language: 'javascript', solution: SUM_JS.solution });
    expect(res.body.problem.hints.find((h: { line: number }) => h.line === 4).distractors.length).toBeGreaterThanOrEqual(1);
  });

  it('refuses with 400 naming the failing test when the reference solution fails, and stores nothing', async () => {
    const before = (await t.db.first<{ n: number }>('SELECT count(*) AS n FROM code_problems'))!.n;
    const res = await expert.post(`/api/expert/classes/${classId}/problems`).send({
      ...COUNT_PY,
      tests: [COUNT_PY.tests[0], { stdin: '2\n', expected_stdout: '1\n2\n3\n', hidden: false }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'solution_fails_tests', detail: { failing_test: 2 } });
    expect(res.body.message).toContain('test 2');
    const crash = await expert.post(`/api/expert/classes/${classId}/problems`).send({ ...COUNT_PY, solution: 'print(1/0)\n' });
    expect(crash.status).toBe(400);
    expect(crash.body.message).toMatch(/test 1: it stopped with an error .*ZeroDivisionError/);
    expect((await t.db.first<{ n: number }>('SELECT count(*) AS n FROM code_problems'))!.n).toBe(before);
  });

  it('refuses bad input: unknown language (listing the supported ones), no tests, too many tests, unknown fields', async () => {
    const lang = await expert.post(`/api/expert/classes/${classId}/problems`).send({ ...COUNT_PY, language: 'ruby' });
    expect(lang.status).toBe(400);
    expect(lang.body.message).toContain('python, javascript');
    for (const body of [
      { ...COUNT_PY, tests: [] },
      { ...COUNT_PY, tests: Array.from({ length: 21 }, () => COUNT_PY.tests[0]) },
      { ...COUNT_PY, solution: '' },
      { ...COUNT_PY, solution: 'x'.repeat(20_001) },
      { ...COUNT_PY, tests: [{ stdin: 1, expected_stdout: '1' }] },
      { ...COUNT_PY, owner: 'me' },
    ]) {
      const res = await expert.post(`/api/expert/classes/${classId}/problems`).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_error');
    }
  });

  it("refuses another expert's class, children and anonymous callers", async () => {
    expect((await otherExpert.post(`/api/expert/classes/${classId}/problems`).send(COUNT_PY)).status).toBe(403);
    expect((await child.post(`/api/expert/classes/${classId}/problems`).send(COUNT_PY)).status).toBe(403);
    expect((await t.agent().post(`/api/expert/classes/${classId}/problems`).send(COUNT_PY)).status).toBe(401);
    expect((await expert.post('/api/expert/classes/999999/problems').send(COUNT_PY)).status).toBe(404);
  });
});

describe('GET/PUT/DELETE /api/expert/problems/{problem_id}', () => {
  it('gives the expert everything, including hidden tests and the solution', async () => {
    const res = await expert.get(`/api/expert/problems/${problemId}`);
    expect(res.status).toBe(200);
    expect(res.body.problem).toMatchObject({ problem_id: problemId, class_id: classId, solution: COUNT_PY.solution, tests: COUNT_PY.tests });
    const list = await expert.get(`/api/expert/classes/${classId}/problems`);
    expect(list.body.problems.map((p: { problem_id: number }) => p.problem_id)).toContain(problemId);
    expect((await otherExpert.get(`/api/expert/problems/${problemId}`)).status).toBe(403);
    expect((await otherExpert.get(`/api/expert/classes/${classId}/problems`)).status).toBe(403);
    expect((await child.get(`/api/expert/problems/${problemId}`)).status).toBe(403);
    expect((await t.agent().get(`/api/expert/problems/${problemId}`)).status).toBe(401);
    expect((await expert.get('/api/expert/problems/1.5')).status).toBe(400);
    expect((await expert.get('/api/expert/problems/999999')).status).toBe(404);
  });

  it('replaces a problem after checking it again; a failing edit leaves the old one intact', async () => {
    const id = await createProblem(expert, classId);
    const bad = await expert.put(`/api/expert/problems/${id}`).send({ ...COUNT_PY, solution: 'n = int(input())\nprint(n)\n' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail.failing_test).toBe(1);
    expect((await problemRow(id))!.solution).toBe(COUNT_PY.solution);
    const edited = { ...COUNT_PY, title: 'Count up (edited)', tests: [COUNT_PY.tests[0]!] };
    const res = await expert.put(`/api/expert/problems/${id}`).send(edited);
    expect(res.status).toBe(200);
    expect(res.body.problem).toMatchObject({ title: 'Count up (edited)', tests: [COUNT_PY.tests[0]] });
    expect(await testRows(id)).toHaveLength(1);
    expect((await otherExpert.put(`/api/expert/problems/${id}`).send(edited)).status).toBe(403);
    expect((await otherExpert.delete(`/api/expert/problems/${id}`)).status).toBe(403);
    const admin = await loginAdmin(t.agent());
    expect((await admin.delete(`/api/expert/problems/${id}`)).body).toEqual({ success: true, deleted: id });
    expect(await problemRow(id)).toBeUndefined();
    expect(await testRows(id)).toEqual([]);
  });
});

describe("the child's side", () => {
  it("lists the problems of the child's classes without solutions or hidden tests", async () => {
    const res = await child.get(`/api/learners/children/${fam.child.child_id}/problems`);
    expect(res.status).toBe(200);
    const p = res.body.problems.find((x: { problem_id: number }) => x.problem_id === problemId);
    expect(p).toMatchObject({ title: 'Count up', class_name: 'Coders', hidden_tests: 1, progress: { solved: false, runs: 0, hints: 0 } });
    expect(p.tests).toEqual([{ stdin: '3\n', expected_stdout: '1\n2\n3\n' }, { stdin: '1\n', expected_stdout: '1\n' }]);
    expect(JSON.stringify(res.body)).not.toContain('range(1, n + 1)');
    expect(JSON.stringify(res.body)).not.toContain('1\\n2\\n3\\n4\\n5');
    expect((await otherChild.get(`/api/learners/children/${fam.child.child_id}/problems`)).status).toBe(403);
    expect((await otherExpert.get(`/api/learners/children/${fam.child.child_id}/problems`)).status).toBe(403);
    expect((await expert.get(`/api/learners/children/${fam.child.child_id}/problems`)).status).toBe(200);
    expect((await t.agent().get(`/api/learners/children/${fam.child.child_id}/problems`)).status).toBe(401);
  });

  it('shows one problem to an enrolled child only', async () => {
    const res = await child.get(`/api/learners/problems/${problemId}`);
    expect(res.status).toBe(200);
    expect(res.body.problem).not.toHaveProperty('solution');
    expect(res.body.problem.hidden_tests).toBe(1);
    const notEnrolled = await otherChild.get(`/api/learners/problems/${problemId}`);
    expect(notEnrolled.status).toBe(403);
    expect(notEnrolled.body.error).toBe('not_enrolled');
    expect((await otherExpert.get(`/api/learners/problems/${problemId}`)).status).toBe(403);
    expect((await t.agent().get(`/api/learners/problems/${problemId}`)).status).toBe(401);
    expect((await child.get('/api/learners/problems/0')).status).toBe(400);
  });
});
