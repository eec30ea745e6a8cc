import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAdmin, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { COUNT_PY, codeQuizWorld } from './factories.js';

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

const ask = (agent: Agent, code: string, line: number, extra: object = {}) =>
  agent.post('/suggest').send({ problemId, code, language: 'python', cursorPosition: { line, column: 0 }, ...extra });
const eventRow = async (id: number) => await t.db.first<Record<string, unknown>>('SELECT * FROM suggestion_events WHERE id = ?', [id]);

describe('POST /suggest (offline, no key)', () => {
  it('answers the next reference line, two wrong lines and an explanation, and stores the event', async () => {
    const code = 'n = int(input())\n';
    const res = await ask(child, code, 2);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ suggestion: 'for i in range(1, n + 1):', generator: 'offline', complete: false });
    expect(res.body.distractors).toHaveLength(2);
    expect(res.body.explanation.length).toBeGreaterThan(10);
    const row = (await eventRow(res.body.event_id))!;
    expect(row).toMatchObject({
      child_id: fam.child.child_id,
      caller_role: 'child',
      class_id: classId,
      problem_id: problemId,
      language: 'python',
      cursor_line: 2,
      cursor_column: 0,
      generator: 'offline',
      model: null,
      suggestion: 'for i in range(1, n + 1):',
      explanation: res.body.explanation,
      choice: null,
    });
    expect(JSON.parse(row.distractors_json as string)).toEqual(res.body.distractors);
    expect(row.code_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(row.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('gives one line only, at or after the cursor, and says to run the tests when nothing is missing', async () => {
    const first = await ask(child, '', 1);
    expect(first.body.suggestion).toBe('n = int(input())');
    expect(first.body.suggestion).not.toContain('\n');
    const last = await ask(child, 'n = int(input())\nfor i in range(1, n + 1):\n', 3);
    expect(last.body.suggestion).toBe('    print(i)');
    const done = await ask(child, COUNT_PY.solution, 4);
    expect(done.body).toMatchObject({ complete: true, distractors: [] });
    expect(done.body.suggestion).toMatch(/Run/);
  });

  it('refuses bad input: unknown language, non-integer problemId, malformed cursorPosition, oversized code', async () => {
    const before = (await t.db.first<{ n: number }>('SELECT count(*) AS n FROM suggestion_events'))!.n;
    const lang = await ask(child, 'x', 1, { language: 'cobol' });
    expect(lang.status).toBe(400);
    expect(lang.body.message).toContain('python, javascript');
    for (const extra of [
      { problemId: 'one' },
      { problemId: 1.5 },
      { cursorPosition: { line: 0, column: 0 } },
      { cursorPosition: { line: 1 } },
      { cursorPosition: { line: 'a', column: 0 } },
      { cursorPosition: [1, 0] },
      { cursorPosition: undefined },
      { code: 'x'.repeat(20_001) },
    ]) {
      const res = await ask(child, 'x', 1, extra);
      expect(res.status, JSON.stringify(extra).slice(0, 60)).toBe(400);
      expect(res.body.error).toBe('validation_error');
    }
    expect((await ask(child, 'x', 1, { language: 'javascript' })).body.error).toBe('language_mismatch');
    expect((await t.db.first<{ n: number }>('SELECT count(*) AS n FROM suggestion_events'))!.n).toBe(before);
  });

  it('checks who is asking: anonymous 401, not enrolled / another family 403, another expert 403, own expert 200', async () => {
    expect((await ask(t.agent(), 'x', 1)).status).toBe(401);
    const notEnrolled = await ask(otherChild, 'x', 1);
    expect(notEnrolled.status).toBe(403);
    expect(notEnrolled.body.error).toBe('not_enrolled');
    expect((await ask(otherExpert, 'x', 1)).status).toBe(403);
    expect((await ask(child, 'x', 1, { problemId: 999999 })).status).toBe(404);
    const mine = await ask(expert, '', 1);
    expect(mine.status).toBe(200);
    expect(await eventRow(mine.body.event_id)).toMatchObject({ caller_role: 'expert', expert_id: fam.expert.expert_id, child_id: null });
  });
});

describe('POST /api/suggestions/{event_id}/answer', () => {
  it("records the child's pick once and answers whether it was right", async () => {
    const s = await ask(child, 'n = int(input())\n', 2);
    const wrong = s.body.distractors[1] as string;
    const res = await child.post(`/api/suggestions/${s.body.event_id}/answer`).send({ choice: `  ${wrong} ` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ correct: false, suggestion: s.body.suggestion, explanation: s.body.explanation });
    expect(await eventRow(s.body.event_id)).toMatchObject({ choice: `  ${wrong} `, choice_correct: 0, choice_distractor: 1 });
    expect((await eventRow(s.body.event_id))!.answered_at).toBeTruthy();
    const again = await child.post(`/api/suggestions/${s.body.event_id}/answer`).send({ choice: s.body.suggestion });
    expect(again.status).toBe(409);
    expect(await eventRow(s.body.event_id)).toMatchObject({ choice_correct: 0 });

    const s2 = await ask(child, 'n = int(input())\n', 2);
    const right = await child.post(`/api/suggestions/${s2.body.event_id}/answer`).send({ choice: s2.body.suggestion });
    expect(right.body.correct).toBe(true);
    expect(await eventRow(s2.body.event_id)).toMatchObject({ choice_correct: 1, choice_distractor: null });
  });

  it("refuses a choice that was not offered, someone else's event, bad ids and anonymous callers", async () => {
    const s = await ask(child, 'n = int(input())\n', 2);
    const id = s.body.event_id as number;
    const bad = await child.post(`/api/suggestions/${id}/answer`).send({ choice: 'print("hello")' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('unknown_choice');
    expect((await otherChild.post(`/api/suggestions/${id}/answer`).send({ choice: s.body.suggestion })).status).toBe(403);
    expect((await otherExpert.post(`/api/suggestions/${id}/answer`).send({ choice: s.body.suggestion })).status).toBe(403);
    expect((await t.agent().post(`/api/suggestions/${id}/answer`).send({ choice: s.body.suggestion })).status).toBe(401);
    expect((await child.post('/api/suggestions/abc/answer').send({ choice: 'x' })).status).toBe(400);
    expect((await child.post('/api/suggestions/999999/answer').send({ choice: 'x' })).status).toBe(404);
    expect((await child.post(`/api/suggestions/${id}/answer`).send({})).status).toBe(400);
    expect(await eventRow(id)).toMatchObject({ choice: null, answered_at: null });
  });
});

describe('what the class did (expert JSON)', () => {
  it('lists suggestion events with the most picked wrong choices, and runs', async () => {
    const s = await ask(child, 'n = int(input())\n', 2);
    await child.post(`/api/suggestions/${s.body.event_id}/answer`).send({ choice: s.body.distractors[0] });
    await child.post('/run').send({ code: COUNT_PY.solution, language: 'python', testCases: [], problemId });

    const ev = await expert.get(`/api/expert/classes/${classId}/suggestion-events`);
    expect(ev.status).toBe(200);
    const mine = ev.body.events.find((e: { event_id: number }) => e.event_id === s.body.event_id);
    expect(mine).toMatchObject({ child_id: fam.child.child_id, child_name: fam.child.first_name, problem_title: 'Count up', choice: s.body.distractors[0], choice_correct: false });
    const top = ev.body.misconceptions.find((m: { picked: string }) => m.picked === s.body.distractors[0]);
    expect(top).toMatchObject({ problem_id: problemId, right_line: 'for i in range(1, n + 1):' });
    expect(top.picks).toBeGreaterThanOrEqual(1);

    const runs = await expert.get(`/api/expert/classes/${classId}/runs?limit=5`);
    expect(runs.status).toBe(200);
    expect(runs.body.runs[0]).toMatchObject({ child_id: fam.child.child_id, problem_id: problemId, status: 'passed', passed: 3, total: 3 });
    expect(runs.body.runs.length).toBeLessThanOrEqual(5);

    for (const path of ['suggestion-events', 'runs']) {
      expect((await otherExpert.get(`/api/expert/classes/${classId}/${path}`)).status).toBe(403);
      expect((await child.get(`/api/expert/classes/${classId}/${path}`)).status).toBe(403);
      expect((await t.agent().get(`/api/expert/classes/${classId}/${path}`)).status).toBe(401);
      expect((await expert.get(`/api/expert/classes/${classId}/${path}?limit=0`)).status).toBe(400);
    }
    const admin = await loginAdmin(t.agent());
    expect((await admin.get(`/api/expert/classes/${classId}/runs`)).status).toBe(200);
  });
});

describe("the child's report", () => {
  it('gains the code problems solved and the hints used', async () => {
    await child.post('/run').send({ code: COUNT_PY.solution, language: 'python', testCases: [], problemId });
    const res = await child.get(`/api/learners/children/${fam.child.child_id}/report`);
    expect(res.status).toBe(200);
    const hints = (await t.db.first<{ n: number }>('SELECT count(*) AS n FROM suggestion_events WHERE child_id = ?', [fam.child.child_id]))!.n;
    const runs = (await t.db.first<{ n: number }>('SELECT count(*) AS n FROM runs WHERE child_id = ?', [fam.child.child_id]))!.n;
    expect(hints).toBeGreaterThan(0);
    expect(res.body.code).toMatchObject({ problems: 1, solved: 1, hints_used: hints, runs });
    expect(res.body.code.by_problem).toEqual([expect.objectContaining({ problem_id: problemId, title: 'Count up', solved: true, hints_used: hints })]);
    // the expert's overview carries it too
    const overview = await expert.get(`/api/expert/report?child_id=${fam.child.child_id}`);
    expect(overview.body.children[0].code).toMatchObject({ solved: 1, hints_used: hints });
  });
});
