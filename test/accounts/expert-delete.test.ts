import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChild, createExpert, createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { addVideo, attemptBody } from '../quiz/quiz-fixtures.js';

/**
 * Deleting an expert never deletes their children's attempts: refused (409) while they own
 * children, or the families, children and videos move to the expert named in move_children_to.
 */
let t: TestApp;
let admin: Agent;
let fam: TestFamily;
let videoId: string;
let claimedId: string;

const n = async (sql: string, params: unknown[] = []) => (await t.db.first<{ n: number }>(sql, params))!.n;
const snapshot = async () => ({
  attempts: await t.db.all('SELECT id, child_id, video_id, percentage, question_count FROM quiz_attempts ORDER BY id'),
  answers: await n('SELECT count(*) AS n FROM quiz_answers'),
  checkpoints: await n('SELECT count(*) AS n FROM quiz_checkpoints'),
});

beforeEach(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t.agent());
  fam = await createFamily(t);
  await createChild(t, fam.expert.expert_id, { first_name: 'Leo' });
  videoId = await addVideo(t, fam.expert.expert_id, 'Assigned Video');
  claimedId = await addVideo(t, null, 'Claimed Video');
  const expert = await loginExpert(t.agent(), fam.expert.code);
  expect((await expert.post(`/api/expert/videos/${claimedId}/claim`)).status).toBe(200);
  const tablet = await loginChild(t.agent(), fam);
  for (const v of [videoId, claimedId]) {
    expect((await tablet.post('/api/save-quiz-score').send(attemptBody(fam.child.child_id, v))).status).toBe(200);
  }
  expect((await tablet.put(`/api/quiz/checkpoints/${fam.child.child_id}/${videoId}`).send({ position_seconds: 12 })).status).toBe(200);
});
afterEach(async () => {
  await t.close();
});

describe('DELETE /api/admin/experts/{expert_id}', () => {
  it('refuses with 409 while the expert owns children, saying how many and how to move them; nothing is deleted', async () => {
    const before = await snapshot();
    const res = await admin.delete(`/api/admin/experts/${fam.expert.expert_id}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, error: 'expert_has_children', detail: { children: 2, attempts: 2 } });
    expect(res.body.message).toMatch(/still owns 2 children with 2 saved quiz attempts/);
    expect(res.body.message).toContain(`move_children_to`);
    expect(await snapshot()).toEqual(before);
    expect(await n('SELECT count(*) AS n FROM experts WHERE id = ?', [fam.expert.expert_id])).toBe(1);
    expect(await n('SELECT count(*) AS n FROM children WHERE expert_id = ?', [fam.expert.expert_id])).toBe(2);
    // the family and expert can still log in
    await loginChild(t.agent(), fam);
    await loginExpert(t.agent(), fam.expert.code);
  });

  it('moves families, children (with every attempt) and videos to move_children_to, then deletes the expert', async () => {
    const target = await createExpert(t, { display_name: 'Dr Kim' });
    const oldTablet = await loginChild(t.agent(), fam);
    const before = await snapshot();
    const res = await admin.delete(`/api/admin/experts/${fam.expert.expert_id}?move_children_to=${target.expert_id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, moved_to: target.expert_id, moved: { children: 2, parents: 1, videos: 2 } });
    expect(await snapshot()).toEqual(before);
    expect(await n('SELECT count(*) AS n FROM experts WHERE id = ?', [fam.expert.expert_id])).toBe(0);
    expect(await n('SELECT count(*) AS n FROM children WHERE expert_id = ?', [target.expert_id])).toBe(2);
    expect(await t.db.first('SELECT expert_id, is_default FROM parents WHERE id = ?', [fam.parentId])).toEqual({ expert_id: target.expert_id, is_default: 0 });
    expect(await n('SELECT count(*) AS n FROM parents WHERE expert_id = ? AND is_default = 1', [target.expert_id])).toBe(1);
    expect(await t.db.first('SELECT expert_id FROM video_claims WHERE video_id = ?', [claimedId])).toEqual({ expert_id: target.expert_id });
    expect(await t.db.first('SELECT expert_id FROM video_assignments WHERE video_id = ?', [videoId])).toEqual({ expert_id: target.expert_id });
    // the old expert's sessions ended, their code is gone; the tablet session under them too
    expect((await oldTablet.get('/api/learners/session')).status).toBe(401);
    expect((await t.agent().post('/api/expert/login').send({ access_code: fam.expert.code })).status).toBe(401);
    // the family code still works, and the child keeps their videos and their history
    const tablet = await loginChild(t.agent(), fam);
    const videos = (await tablet.get('/api/kids_videos')).body.videos.map((v: { video_id: string }) => v.video_id);
    expect(videos).toEqual(expect.arrayContaining([videoId, claimedId]));
    const scores = await tablet.get(`/api/get-quiz-scores/${fam.child.child_id}`);
    expect(scores.body.count).toBe(2);
    // the new expert sees the child and the reports
    const kim = await loginExpert(t.agent(), target.code);
    const report = await kim.get(`/api/learners/children/${fam.child.child_id}/report`);
    expect(report.status).toBe(200);
    expect(report.body.overall.attempts).toBe(2);
  });

  it('deletes an expert who owns no children, with their empty families and codes', async () => {
    const lone = await createExpert(t);
    const before = await snapshot();
    const res = await admin.delete(`/api/admin/experts/${lone.expert_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, moved_to: null, moved: null });
    expect(await n('SELECT count(*) AS n FROM experts WHERE id = ?', [lone.expert_id])).toBe(0);
    expect(await n('SELECT count(*) AS n FROM parents WHERE expert_id = ?', [lone.expert_id])).toBe(0);
    expect(await n("SELECT count(*) AS n FROM access_codes WHERE owner_kind = 'expert' AND owner_id = ?", [lone.expert_id])).toBe(0);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a bad move target and changes nothing', async () => {
    const inactive = await createExpert(t);
    await admin.post(`/api/admin/experts/${inactive.expert_id}/deactivate`);
    const before = await snapshot();
    const cases: [string, number, string][] = [
      ['nobody-here', 404, 'expert_not_found'],
      [fam.expert.expert_id, 400, 'move_to_same_expert'],
      [inactive.expert_id, 409, 'move_target_inactive'],
      ['../etc', 400, 'validation_error'],
    ];
    for (const [target, status, code] of cases) {
      const res = await admin.delete(`/api/admin/experts/${fam.expert.expert_id}?move_children_to=${encodeURIComponent(target)}`);
      expect(res.status, target).toBe(status);
      expect(res.body).toMatchObject({ success: false, error: code });
    }
    expect(await snapshot()).toEqual(before);
    expect(await n('SELECT count(*) AS n FROM children WHERE expert_id = ?', [fam.expert.expert_id])).toBe(2);
    expect(await n('SELECT count(*) AS n FROM experts WHERE id = ?', [fam.expert.expert_id])).toBe(1);
  });

  it('is for the admin only', async () => {
    const expert = await loginExpert(t.agent(), fam.expert.code);
    expect((await expert.delete(`/api/admin/experts/${fam.expert.expert_id}`)).status).toBe(403);
    expect((await t.agent().delete(`/api/admin/experts/${fam.expert.expert_id}`)).status).toBe(401);
    expect(await n('SELECT count(*) AS n FROM experts WHERE id = ?', [fam.expert.expert_id])).toBe(1);
  });
});
