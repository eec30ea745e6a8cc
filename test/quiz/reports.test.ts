import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChild, createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type TestApp, type TestFamily } from '../helpers/app.js';
import { addVideo, attemptBody } from './quiz-fixtures.js';

let t: TestApp;
let family: TestFamily;
let other: TestFamily;
let barn: string;
let moon: string;
let sibling: string;

beforeAll(async () => {
  t = await startTestApp();
  family = await createFamily(t);
  other = await createFamily(t);
  barn = await addVideo(t, family.expert.expert_id, 'The Red Barn');
  moon = await addVideo(t, family.expert.expert_id, 'Zoe Goes to the Moon');
  sibling = (await createChild(t, family.expert.expert_id, { first_name: 'Noah', parent_id: family.parentId })).child_id;
  const child = await loginChild(t.agent(), family);
  const id = family.child.child_id;
  // strict barn attempt: 50 %; flexible moon attempt: 100 %; passive barn watch: no score
  for (const body of [
    attemptBody(id, barn),
    { child_id: id, video_id: moon, interaction_mode: 'flexible', watch_minutes: 2, details: [
      { question: 'Where did Zoe fly?', question_type: 'setting', expected: 'to the moon', user: 'the moon', status: 'correct' }] },
    { child_id: id, video_id: barn, interaction_mode: 'passive', watch_minutes: 1 },
  ]) {
    const res = await child.post('/api/save-quiz-score').send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  await child.put(`/api/quiz/checkpoints/${id}/${moon}`).send({ position_seconds: 12, duration_seconds: 60, watch_minutes: 0.3 });
  await t.db.run(`UPDATE videos SET title = 'The Big Red Barn' WHERE id = ?`, [barn]);
});
afterAll(() => t.close());

describe('GET /api/learners/children/{child_id}/report', () => {
  it("builds the child's report from attempts, answers and the videos table", async () => {
    const child = await loginChild(t.agent(), family);
    const res = await child.get(`/api/learners/children/${family.child.child_id}/report`);
    expect(res.status).toBe(200);
    const r = res.body;
    expect(r).toMatchObject({ success: true, child: { child_id: family.child.child_id, first_name: 'Mia' }, filters: { video_id: null, mode: null } });
    expect(r.overall).toMatchObject({
      score: 75, attempts: 3, scored_attempts: 2, questions_answered: 4, correct: 2, almost: 1, wrong: 1, skipped: 0,
      answer_score: 62.5, total_retries: 1, watch_minutes: 4.5, videos_watched: 2,
    });
    expect(r.by_question_type).toEqual([
      { question_type: 'character', questions: 1, correct: 0, almost: 1, wrong: 0, skipped: 0, score: 50 },
      { question_type: 'feeling', questions: 1, correct: 0, almost: 0, wrong: 1, skipped: 0, score: 0 },
      { question_type: 'setting', questions: 2, correct: 2, almost: 0, wrong: 0, skipped: 0, score: 100 },
    ]);
    expect(r.by_mode.map((m: { interaction_mode: string; attempts: number; average_score: number; watch_minutes: number }) =>
      [m.interaction_mode, m.attempts, m.average_score, m.watch_minutes])).toEqual([
      ['strict', 1, 50, 1.5], ['flexible', 1, 100, 2], ['passive', 1, 0, 1],
    ]);
    expect(r.recent_videos).toEqual([
      expect.objectContaining({ video_id: barn, title: 'The Big Red Barn', attempts: 2, last_score: null, best_score: 50 }),
      expect.objectContaining({ video_id: moon, title: 'Zoe Goes to the Moon', attempts: 1, last_score: 100, best_score: 100 }),
    ]);
    expect(r.score_over_time.map((p: { percentage: number; video_id: string }) => [p.video_id, p.percentage])).toEqual([[barn, 50], [moon, 100]]);
    expect(r.answers_to_review.map((a: { said: string; status: string; expected: string; video_title: string }) =>
      [a.said, a.status, a.expected, a.video_title])).toEqual([
      ['an animal', 'almost', 'the piglet', 'The Big Red Barn'],
      ['sad', 'wrong', 'happy', 'The Big Red Barn'],
    ]);
    expect(r.in_progress).toEqual([expect.objectContaining({ video_id: moon, position_seconds: 12, watch_minutes: 0.3 })]);
    expect(r.attempts).toBeUndefined();
    // one row per session (newest first), with the mode and retries every attempt stores
    expect(r.sessions.map((x: { video_id: string; video_title: string; interaction_mode: string; total_retries: number; percentage: number | null; watch_minutes: number; questions: number }) =>
      [x.video_title, x.interaction_mode, x.total_retries, x.percentage, x.watch_minutes, x.questions])).toEqual([
      ['The Big Red Barn', 'passive', 0, null, 1, 0],
      ['Zoe Goes to the Moon', 'flexible', 0, 100, 2, 1],
      ['The Big Red Barn', 'strict', 1, 50, 1.5, 3],
    ]);
    const rows = await t.db.all<{ n: number }>('SELECT COUNT(*) AS n FROM quiz_attempts WHERE child_id = ?', [family.child.child_id]);
    expect(rows[0]!.n).toBe(r.sessions.length);
  });

  it('filters by video and by mode', async () => {
    const expert = await loginExpert(t.agent(), family.expert.code);
    const byVideo = await expert.get(`/api/learners/children/${family.child.child_id}/report?video_id=${moon}`);
    expect(byVideo.body.overall).toMatchObject({ attempts: 1, score: 100 });
    const byMode = await expert.get(`/api/learners/children/${family.child.child_id}/report?mode=passive`);
    expect(byMode.body.overall).toMatchObject({ attempts: 1, scored_attempts: 0, score: 0, watch_minutes: 1 });
    expect((await expert.get(`/api/learners/children/${family.child.child_id}/report?mode=lazy`)).status).toBe(400);
  });

  it('has zeros and empty lists for a child without attempts', async () => {
    const admin = await loginAdmin(t.agent());
    const res = await admin.get(`/api/learners/children/${sibling}/report`);
    expect(res.status).toBe(200);
    expect(res.body.overall).toMatchObject({ score: 0, attempts: 0, questions_answered: 0, watch_minutes: 0, first_activity: null });
    expect(res.body.by_question_type).toEqual([]);
    expect(res.body.by_mode.every((m: { attempts: number }) => m.attempts === 0)).toBe(true);
    expect([res.body.recent_videos, res.body.score_over_time, res.body.answers_to_review, res.body.in_progress, res.body.sessions]).toEqual([[], [], [], [], []]);
  });

  it('refuses anonymous, other families and unknown children', async () => {
    const url = `/api/learners/children/${family.child.child_id}/report`;
    expect((await t.agent().get(url)).status).toBe(401);
    const stranger = await loginChild(t.agent(), other);
    expect((await stranger.get(url)).body).toMatchObject({ success: false, error: 'child_not_yours' });
    expect((await (await loginExpert(t.agent(), other.expert.code)).get(url)).status).toBe(403);
    expect((await (await loginAdmin(t.agent())).get('/api/learners/children/999999/report')).status).toBe(404);
  });
});

describe('GET /api/expert/report', () => {
  it("reports on the expert's children with a summary", async () => {
    const expert = await loginExpert(t.agent(), family.expert.code);
    const res = await expert.get('/api/expert/report');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, expert_id: family.expert.expert_id, filters: { child_id: null, video_id: null, mode: null } });
    expect(res.body.children.map((c: { child: { child_id: string } }) => c.child.child_id).sort()).toEqual([family.child.child_id, sibling].sort());
    expect(res.body.summary).toMatchObject({ children: 2, attempts: 3, scored_attempts: 2, average_score: 75, questions_answered: 4, watch_minutes: 4.5 });
  });

  it('filters by child, video and mode', async () => {
    const expert = await loginExpert(t.agent(), family.expert.code);
    const one = await expert.get(`/api/expert/report?child_id=${family.child.child_id}&mode=strict`);
    expect(one.body.children).toHaveLength(1);
    expect(one.body.summary).toMatchObject({ children: 1, attempts: 1, average_score: 50 });
    const vid = await expert.get(`/api/expert/report?video_id=${moon}`);
    expect(vid.body.summary).toMatchObject({ attempts: 1, average_score: 100 });
    expect((await expert.get(`/api/expert/report?child_id=${other.child.child_id}`)).status).toBe(403);
    expect((await expert.get('/api/expert/report?child_id=abc')).status).toBe(400);
  });

  it('lets the admin pick an expert, and refuses children, anonymous and unknown experts', async () => {
    const admin = await loginAdmin(t.agent());
    const res = await admin.get(`/api/expert/report?expert_id=${other.expert.expert_id}`);
    expect(res.body).toMatchObject({ expert_id: other.expert.expert_id, summary: { children: 1, attempts: 0 } });
    expect((await admin.get('/api/expert/report?expert_id=nobody-here')).status).toBe(404);
    expect((await (await loginChild(t.agent(), family)).get('/api/expert/report')).status).toBe(403);
    expect((await t.agent().get('/api/expert/report')).status).toBe(401);
  });
});

describe('GET /api/reports/child/{child_id}', () => {
  it('gives the admin the full report with every attempt and answer', async () => {
    const admin = await loginAdmin(t.agent());
    const res = await admin.get(`/api/reports/child/${family.child.child_id}`);
    expect(res.status).toBe(200);
    expect(res.body.overall).toMatchObject({ attempts: 3, score: 75 });
    expect(res.body.attempts).toHaveLength(3);
    expect(res.body.attempts.flatMap((a: { details: { user: string }[] }) => a.details.map((d) => d.user))).toEqual(['the moon', 'read', 'an animal', 'sad']);
  });

  it('is for the admin only', async () => {
    const url = `/api/reports/child/${family.child.child_id}`;
    expect((await t.agent().get(url)).status).toBe(401);
    expect((await (await loginExpert(t.agent(), family.expert.code)).get(url)).status).toBe(403);
    expect((await (await loginChild(t.agent(), family)).get(url)).status).toBe(403);
    expect((await (await loginAdmin(t.agent())).get('/api/reports/child/999999')).status).toBe(404);
  });
});
