import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { COUNT_PY, createClass, codeQuizWorld } from './factories.js';

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
  ({ t, fam, other, expert, otherExpert, child, otherChild, classId, problemId } = await codeQuizWorld({ CODE_CALLS_PER_MINUTE: '1000' }));
});
afterAll(() => t.close());

const runRows = async () => await t.db.all<Record<string, unknown>>('SELECT * FROM runs ORDER BY id');

describe('POST /run', () => {
  it('runs once per test case and answers the contract fields, per-case results, passed and total', async () => {
    const res = await child.post('/run').send({
      code: 'print(int(input()) * 2)',
      language: 'python',
      testCases: [
        { stdin: '2', expected_stdout: '4' },
        { input: '5', output: '11' },
        { input: '7', output: '14\n' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ passed: 2, total: 3, exitCode: 0, stdout: '10\n', stderr: '', run_id: null });
    expect(res.body.results.map((r: { passed: boolean }) => r.passed)).toEqual([true, false, true]);
    expect(res.body.results[1]).toMatchObject({ stdin: '5', expected_stdout: '11', stdout: '10\n', timed_out: false, hidden: false });
    expect(Number.isInteger(res.body.runtimeMs)).toBe(true);
    // without a problem nothing is stored
    expect(await runRows()).toEqual([]);
  });

  it('runs once without input for an empty testCases array, in JavaScript too', async () => {
    const res = await child.post('/run').send({ code: 'console.log("hi"); console.error("oops"); process.exit(3)', language: 'javascript', testCases: [] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stdout: 'hi\n', stderr: 'oops\n', exitCode: 3, total: 1, passed: 0 });
  });

  it('reports a time-out as a failed case and the service keeps answering', async () => {
    const res = await child.post('/run').send({ code: 'while True:\n    pass\n', language: 'python', testCases: [{ stdin: '', expected_stdout: '' }] });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ passed: false, timed_out: true });
    expect((await child.get('/api/learners/session')).status).toBe(200);
  });

  it("with problemId also runs the stored tests, hides the hidden one's data, and stores the run", async () => {
    const res = await child.post('/run').send({ code: COUNT_PY.solution, language: 'python', testCases: [], problemId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ passed: 3, total: 3 });
    const hidden = res.body.results[2];
    expect(hidden).toMatchObject({ hidden: true, passed: true, stdin: null, expected_stdout: null, stdout: '', stderr: '' });
    expect(JSON.stringify(res.body)).not.toContain('4\\n5');
    const [row] = (await runRows()).slice(-1);
    expect(row).toMatchObject({ id: res.body.run_id, child_id: fam.child.child_id, caller_role: 'child', class_id: classId, problem_id: problemId, language: 'python', passed: 3, total: 3, status: 'passed' });
    expect(row!.code_sha256).toMatch(/^[0-9a-f]{64}$/);

    const wrong = await child.post('/run').send({ code: 'n = int(input())\nfor i in range(1, n):\n    print(i)\n', language: 'python', testCases: [], problemId });
    expect(wrong.body).toMatchObject({ passed: 0, total: 3 });
    expect(wrong.body.stdout).toBe('1\n2\n');
    expect((await runRows()).slice(-1)[0]).toMatchObject({ status: 'failed', passed: 0 });
    const progress = await child.get(`/api/learners/children/${fam.child.child_id}/problems`);
    expect(progress.body.problems[0].progress).toMatchObject({ solved: true, runs: 2 });
    expect(progress.body.solved).toBe(1);
  });

  it('refuses bad input with 400: unknown language (listing the supported), too many cases, oversized code, bad problemId', async () => {
    const before = (await runRows()).length;
    const lang = await child.post('/run').send({ code: 'puts 1', language: 'ruby', testCases: [] });
    expect(lang.status).toBe(400);
    expect(lang.body.message).toContain('python, javascript');
    for (const body of [
      { code: 'print(1)', language: 'python', testCases: Array.from({ length: 21 }, () => ({ stdin: '', expected_stdout: '1' })) },
      { code: 'x'.repeat(20_001), language: 'python', testCases: [] },
      { code: 'print(1)', language: 'python', testCases: [], problemId: '1' },
      { code: 'print(1)', language: 'python', testCases: [], problemId: 1.5 },
      { code: 'print(1)', language: 'python', testCases: 'none' },
      { code: 'print(1)', language: 'python', testCases: [{ stdin: 1 }] },
      { code: 42, language: 'python', testCases: [] },
    ]) {
      const res = await child.post('/run').send(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'validation_error' });
    }
    const mismatch = await child.post('/run').send({ code: 'console.log(1)', language: 'javascript', testCases: [], problemId });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toBe('language_mismatch');
    expect((await runRows()).length).toBe(before);
  });

  it('checks who is asking: anonymous 401, not enrolled or another family 403, another expert 403', async () => {
    expect((await t.agent().post('/run').send({ code: 'print(1)', language: 'python', testCases: [] })).status).toBe(401);
    const notEnrolled = await otherChild.post('/run').send({ code: 'print(1)', language: 'python', testCases: [], problemId });
    expect(notEnrolled.status).toBe(403);
    expect((await otherExpert.post('/run').send({ code: 'print(1)', language: 'python', testCases: [], problemId })).status).toBe(403);
    expect((await child.post('/run').send({ code: 'print(1)', language: 'python', testCases: [], problemId: 999999 })).status).toBe(404);
    // a tablet that has not picked a profile cannot run code in anyone's name
    const family = t.agent();
    await family.post('/api/learners/parents/login').send({ access_code: fam.parentCode });
    expect((await family.post('/run').send({ code: 'print(1)', language: 'python', testCases: [] })).status).toBe(403);
    // the problem's expert and the admin may try it; their runs are stored under them
    const mine = await expert.post('/run').send({ code: COUNT_PY.solution, language: 'python', testCases: [], problemId });
    expect(mine.status).toBe(200);
    expect((await runRows()).slice(-1)[0]).toMatchObject({ caller_role: 'expert', expert_id: fam.expert.expert_id, child_id: null });
    const admin = await loginAdmin(t.agent());
    expect((await admin.post('/run').send({ code: 'print(1)', language: 'python', testCases: [] })).status).toBe(200);
  });

  it('limits calls per session with 429 and Retry-After', async () => {
    const small = await startTestApp({ CODE_CALLS_PER_MINUTE: '2' });
    try {
      const f = await createFamily(small);
      const kid = await loginChild(small.agent(), f);
      for (let i = 0; i < 2; i++) expect((await kid.post('/run').send({ code: 'print(1)', language: 'python', testCases: [] })).status).toBe(200);
      const res = await kid.post('/run').send({ code: 'print(1)', language: 'python', testCases: [] });
      expect(res.status).toBe(429);
      expect(res.body.error).toBe('too_many_requests');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // another session is not affected
      const teacher = await loginExpert(small.agent(), f.expert.code);
      expect((await teacher.post('/run').send({ code: 'print(1)', language: 'python', testCases: [] })).status).toBe(200);
    } finally {
      await small.close();
    }
  });
});

describe('POST /run without a sandbox', () => {
  it('answers 503 with a code and the package to install, never running the code', async () => {
    const broken = await startTestApp({ BWRAP_PATH: '/nonexistent/bwrap' });
    try {
      const f = await createFamily(broken);
      const kid = await loginChild(broken.agent(), f);
      const res = await kid.post('/run').send({ code: 'print(1)', language: 'python', testCases: [] });
      expect(res.status).toBe(503);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toMatch(/^[a-z_]+$/);
      expect(res.body.message).toContain('bubblewrap');
      const teacher = await loginExpert(broken.agent(), f.expert.code);
      const cls = await createClass(teacher);
      const save = await teacher.post(`/api/expert/classes/${cls}/problems`).send(COUNT_PY);
      expect(save.status).toBe(503);
      expect(await broken.db.all('SELECT * FROM code_problems')).toEqual([]);
      // /suggest too, even though its offline path runs no code: the feature is off without a sandbox
      const pid = Number((await broken.db.first<{ id: number }>("INSERT INTO code_problems (class_id, title, prompt, language, solution) VALUES (?, 'p', 'p', 'python', 'print(1)') RETURNING id", [cls]))!.id);
      await teacher.post(`/api/expert/classes/${cls}/enrolments`).send({ child_id: f.child.child_id });
      const hint = await kid.post('/suggest').send({ problemId: pid, code: '', language: 'python', cursorPosition: { line: 1, column: 0 } });
      expect(hint.status).toBe(503);
      expect(hint.body.message).toContain('apt-get install bubblewrap');
      expect(await broken.db.all('SELECT * FROM suggestion_events')).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});
