import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { ffmpeg, makeClip, writeVtt } from '../fixtures/media.js';
import { addVideo } from '../fixtures/videos.js';

/**
 * The lists, assignments, claims and media serving. Library:
 *   assigned  – assigned by the admin to expert A (frames extracted)
 *   claimedB  – claimed by expert B
 *   loose     – nobody's
 *   sample    – the bundled sample: a library video like any other (assigned to expert A here)
 *   partial   – a first download still running (listed nowhere)
 */
let tmp: string;
let t: TestApp;
let admin: Agent;
let famA: TestFamily;
let famB: TestFamily;
let expertA: Agent;
let expertB: Agent;
let childA: Agent;

const ADMIN_KEYS = ['duration_formatted', 'duration_seconds', 'frame_count', 'frames_dir', 'has_frames', 'has_questions', 'question_file', 'title', 'video_id'];
const LIST_KEYS = ['duration', 'id', 'questionCount', 'thumbnail', 'title', 'videoUrl'];
const KIDS_KEYS = ['duration', 'local_path', 'thumbnail', 'title', 'video_id'];
const ids = (videos: Record<string, unknown>[], key = 'video_id') => videos.map((v) => v[key] as string).sort();

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-library-'));
  const clip = makeClip(path.join(tmp, 'clip.mp4'), { seconds: 3 });
  const thumb = path.join(tmp, 'thumb.jpg');
  ffmpeg(['-i', clip, '-frames:v', '1', thumb]);
  const vtt = writeVtt(path.join(tmp, 'v.vtt'), [[0, 3, 'Hello']]);
  t = await startTestApp();
  admin = await loginAdmin(t.agent());
  await addVideo(t.db, t.dataDir, { id: 'assigned', videoFile: clip, thumbnailFile: thumb, subtitleFile: vtt, duration: 3, title: 'Assigned video' });
  await addVideo(t.db, t.dataDir, { id: 'claimedB', videoFile: clip, duration: 75.4, title: 'Claimed by B' });
  await addVideo(t.db, t.dataDir, { id: 'loose', videoFile: clip, duration: 3 });
  await addVideo(t.db, t.dataDir, { id: 'sample', videoFile: clip, duration: 3, isSample: true });
  await t.db.run("INSERT INTO videos (id, title, state) VALUES ('partial', 'Partial', 'downloading')");
  famA = await createFamily(t);
  famB = await createFamily(t);
  expertA = await loginExpert(t.agent(), famA.expert.code);
  expertB = await loginExpert(t.agent(), famB.expert.code);
  childA = await loginChild(t.agent(), famA);
  expect((await admin.post('/api/admin/videos/assignments').send({ video_id: 'assigned', expert_id: famA.expert.expert_id })).status).toBe(200);
  expect((await admin.post('/api/admin/videos/assignments').send({ video_id: 'sample', expert_id: famA.expert.expert_id })).status).toBe(200);
  expect((await expertB.post('/api/expert/videos/claimedB/claim')).status).toBe(200);
  expect((await admin.post('/api/frames/assigned')).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('GET /api/admin/videos', () => {
  it('lists only videos with frames by default, every downloaded one with include_without_frames', async () => {
    const res = await admin.get('/api/admin/videos');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, count: 1 });
    const [item] = res.body.videos;
    expect(Object.keys(item).sort()).toEqual(ADMIN_KEYS);
    // the folder of the frame set the row names (each extraction writes a new set)
    const { frames_set: set } = (await t.db.first<{ frames_set: string }>('SELECT frames_set FROM videos WHERE id = ?', ['assigned']))!;
    expect(item).toEqual({
      video_id: 'assigned',
      title: 'Assigned video',
      duration_seconds: 3,
      duration_formatted: '0:03',
      has_frames: true,
      frame_count: 3,
      has_questions: false,
      frames_dir: path.join(t.dataDir, 'videos', 'assigned', set),
      question_file: '',
    });
    const all = await admin.get('/api/admin/videos?include_without_frames=true');
    expect(all.body.count).toBe(4);
    expect(ids(all.body.videos)).toEqual(['assigned', 'claimedB', 'loose', 'sample']);
    expect(all.body.videos.find((v: { video_id: string }) => v.video_id === 'claimedB')).toMatchObject({ duration_formatted: '1:15', has_frames: false, frames_dir: '' });
  });

  it('reflects questions submitted for a video', async () => {
    const sub = await admin.post('/api/submit-questions').send({
      video_id: 'assigned',
      questions: [{ segment_range_start: 0, segment_range_end: 3, question_type: 'action', question: 'What does the bunny do?', answer: 'hops' }],
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const item = (await admin.get('/api/admin/videos')).body.videos[0];
    expect(item.has_questions).toBe(true);
    expect(item.question_file).toBe(path.join(t.dataDir, 'videos', 'assigned', 'questions.json'));
    const list = (await admin.get('/api/videos-list')).body.videos;
    expect(list.find((v: { id: string }) => v.id === 'assigned').questionCount).toBe(1);
  });

  it('validates include_without_frames and refuses other roles', async () => {
    const bad = await admin.get('/api/admin/videos?include_without_frames=maybe');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/include_without_frames/);
    expect((await t.agent().get('/api/admin/videos')).status).toBe(401);
    expect((await expertA.get('/api/admin/videos')).status).toBe(403);
    expect((await childA.get('/api/admin/videos')).status).toBe(403);
  });
});

describe('GET /api/videos-list', () => {
  it('gives the admin every video and an expert their own (the sample only when it is theirs), with the contract fields', async () => {
    const all = await admin.get('/api/videos-list');
    expect(all.status).toBe(200);
    expect(ids(all.body.videos, 'id')).toEqual(['assigned', 'claimedB', 'loose', 'sample']);
    const a = await expertA.get('/api/videos-list');
    expect(ids(a.body.videos, 'id')).toEqual(['assigned', 'sample']);
    const item = a.body.videos.find((v: { id: string }) => v.id === 'assigned');
    expect(Object.keys(item).sort()).toEqual(LIST_KEYS);
    expect(item).toMatchObject({ title: 'Assigned video', thumbnail: '/media/videos/assigned/thumbnail', duration: 3, videoUrl: '/media/videos/assigned/video' });
    expect(ids((await expertB.get('/api/videos-list')).body.videos, 'id')).toEqual(['claimedB']);
  });

  it('is not for child sessions', async () => {
    expect((await childA.get('/api/videos-list')).status).toBe(403);
    expect((await t.agent().get('/api/videos-list')).status).toBe(401);
  });
});

describe('GET /api/kids_videos', () => {
  it("gives a child session the family expert's videos as kids items", async () => {
    const res = await childA.get('/api/kids_videos');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, count: 2 });
    const item = res.body.videos.find((v: { video_id: string }) => v.video_id === 'assigned');
    expect(Object.keys(item).sort()).toEqual(KIDS_KEYS);
    expect(item).toEqual({ video_id: 'assigned', title: 'Assigned video', duration: '0:03', local_path: '/media/videos/assigned/video', thumbnail: '/media/videos/assigned/thumbnail' });
    expect(res.body.videos.find((v: { video_id: string }) => v.video_id === 'sample').thumbnail).toBe('');
  });

  it('gives an expert their videos and the admin all', async () => {
    expect(ids((await expertB.get('/api/kids_videos')).body.videos)).toEqual(['claimedB']);
    expect((await admin.get('/api/kids_videos')).body.count).toBe(4);
    expect((await t.agent().get('/api/kids_videos')).status).toBe(401);
  });
});

describe('GET /api/learners/children/{child_id}/videos', () => {
  it("lists the child's videos for the child, its expert and the admin", async () => {
    for (const who of [childA, expertA, admin]) {
      const res = await who.get(`/api/learners/children/${famA.child.child_id}/videos`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, child_id: famA.child.child_id, expert_id: famA.expert.expert_id, count: 2 });
      expect(ids(res.body.videos)).toEqual(['assigned', 'sample']);
    }
  });

  it("refuses another family's child, unknown and malformed ids", async () => {
    expect((await childA.get(`/api/learners/children/${famB.child.child_id}/videos`)).status).toBe(403);
    expect((await expertA.get(`/api/learners/children/${famB.child.child_id}/videos`)).status).toBe(403);
    expect((await admin.get('/api/learners/children/999999/videos')).status).toBe(404);
    expect((await admin.get('/api/learners/children/12ab56/videos')).status).toBe(400);
    expect((await t.agent().get(`/api/learners/children/${famA.child.child_id}/videos`)).status).toBe(401);
  });
});

describe('expert videos, available videos, claim and unclaim', () => {
  it('GET /api/expert/videos: assigned and claimed videos (the sample is assigned to A), with relations', async () => {
    const res = await expertA.get('/api/expert/videos');
    expect(res.status).toBe(200);
    expect(ids(res.body.videos)).toEqual(['assigned', 'sample']);
    expect(res.body.videos.find((v: { video_id: string }) => v.video_id === 'assigned')).toMatchObject({
      assigned_to_me: true,
      claimed_by_me: false,
      claimed_by: null,
      has_frames: true,
      frame_count: 3,
      video_url: '/media/videos/assigned/video',
    });
    expect((await admin.get('/api/expert/videos')).status).toBe(403);
    expect((await childA.get('/api/expert/videos')).status).toBe(403);
  });

  it('GET /api/expert/videos/available: unclaimed videos, the sample included', async () => {
    const res = await expertA.get('/api/expert/videos/available');
    expect(ids(res.body.videos)).toEqual(['assigned', 'loose', 'sample']);
    expect((await childA.get('/api/expert/videos/available')).status).toBe(403);
  });

  it('claim: first expert wins (the sample too), unknown videos are refused; the child then sees it', async () => {
    const res = await expertA.post('/api/expert/videos/loose/claim');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, video_id: 'loose', expert_id: famA.expert.expert_id });
    expect(await t.db.first('SELECT expert_id FROM video_claims WHERE video_id = ?', ['loose'])).toEqual({ expert_id: famA.expert.expert_id });
    expect((await expertA.post('/api/expert/videos/loose/claim')).status).toBe(200);
    const other = await expertB.post('/api/expert/videos/loose/claim');
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('already_claimed');
    // the sample is claimed like any other video; expert B's family then sees it
    expect((await expertB.post('/api/expert/videos/sample/claim')).status).toBe(200);
    expect(await t.db.first('SELECT expert_id FROM video_claims WHERE video_id = ?', ['sample'])).toEqual({ expert_id: famB.expert.expert_id });
    expect((await expertA.post('/api/expert/videos/sample/claim')).status).toBe(409);
    expect((await expertA.post('/api/expert/videos/nosuchvideo/claim')).status).toBe(404);
    expect((await expertA.post('/api/expert/videos/partial/claim')).status).toBe(404);
    expect((await expertA.post('/api/expert/videos/bad.id/claim')).status).toBe(400);
    expect((await admin.post('/api/expert/videos/loose/claim')).status).toBe(403);
    expect(ids((await childA.get('/api/kids_videos')).body.videos)).toEqual(['assigned', 'loose', 'sample']);
    expect(ids((await expertB.get('/api/expert/videos/available')).body.videos)).toEqual(['assigned']);
  });

  it("unclaim: only the owner, and only what is claimed", async () => {
    const stolen = await expertB.delete('/api/expert/videos/loose/unclaim');
    expect(stolen.status).toBe(403);
    expect(stolen.body.error).toBe('claimed_by_other');
    const res = await expertA.delete('/api/expert/videos/loose/unclaim');
    expect(res.status).toBe(200);
    expect(await t.db.first('SELECT 1 FROM video_claims WHERE video_id = ?', ['loose'])).toBeUndefined();
    expect((await expertA.delete('/api/expert/videos/loose/unclaim')).body.error).toBe('not_claimed');
    expect(ids((await childA.get('/api/kids_videos')).body.videos)).toEqual(['assigned', 'sample']);
    expect((await childA.delete('/api/expert/videos/loose/unclaim')).status).toBe(403);
  });
});

describe('admin assignments', () => {
  it('assigns (idempotently), lists with claims, and removes', async () => {
    const body = { video_id: 'loose', expert_id: famB.expert.expert_id };
    const res = await admin.post('/api/admin/videos/assignments').send(body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, ...body });
    expect((await admin.post('/api/admin/videos/assignments').send(body)).body.message).toMatch(/already/);
    expect(await t.db.all('SELECT expert_id FROM video_assignments WHERE video_id = ?', ['loose'])).toEqual([{ expert_id: famB.expert.expert_id }]);
    const list = await admin.get('/api/admin/videos/assignments');
    // one item per downloaded video (the original service's shape), with its experts
    const videoCount = (await t.db.first<{ n: number }>(`SELECT count(*) AS n FROM videos WHERE state = 'downloaded'`))!.n;
    expect(list.body.count).toBe(videoCount);
    expect(list.body.assignments).toHaveLength(videoCount);
    expect(list.body.assignments).toContainEqual({
      video_id: 'loose', title: 'Video loose', is_sample: false, claimed_by: null,
      assigned_experts: [{ expert_id: famB.expert.expert_id, expert_name: 'Test Expert', assigned_at: expect.any(String) }],
    });
    const assignedRows = await t.db.all<{ video_id: string; expert_id: string }>('SELECT video_id, expert_id FROM video_assignments ORDER BY video_id, expert_id');
    const listed = list.body.assignments.flatMap((a: { video_id: string; assigned_experts: { expert_id: string }[] }) => a.assigned_experts.map((e) => ({ video_id: a.video_id, expert_id: e.expert_id })));
    expect(listed.sort((x: { video_id: string }, y: { video_id: string }) => x.video_id.localeCompare(y.video_id))).toEqual(assignedRows);
    expect(list.body.assignments).toContainEqual(expect.objectContaining({ video_id: 'claimedB', claimed_by: { expert_id: famB.expert.expert_id, expert_name: 'Test Expert' } }));
    // the drop-down list of the original admin page: the same experts as GET /api/admin/experts
    const experts = (await admin.get('/api/admin/experts')).body.experts as { expert_id: string; display_name: string; active: boolean }[];
    expect(list.body.experts).toEqual(experts.map((e) => ({ expert_id: e.expert_id, display_name: e.display_name, is_active: e.active })));
    expect(list.body.experts).toContainEqual({ expert_id: famB.expert.expert_id, display_name: 'Test Expert', is_active: true });
    expect(list.body.claims).toEqual(expect.arrayContaining([expect.objectContaining({ video_id: 'claimedB', expert_id: famB.expert.expert_id })]));
    expect(list.body.claims).toHaveLength((await t.db.first<{ n: number }>('SELECT count(*) AS n FROM video_claims'))!.n);
    expect(ids((await expertB.get('/api/videos-list')).body.videos, 'id')).toEqual(['claimedB', 'loose', 'sample']);
    expect((await admin.delete(`/api/admin/videos/assignments/loose/${famB.expert.expert_id}`)).status).toBe(200);
    expect((await admin.delete(`/api/admin/videos/assignments/loose/${famB.expert.expert_id}`)).status).toBe(404);
  });

  it('refuses unknown videos and experts, malformed bodies and other roles', async () => {
    const expertId = famA.expert.expert_id;
    expect((await admin.post('/api/admin/videos/assignments').send({ video_id: 'nosuchvideo', expert_id: expertId })).status).toBe(404);
    expect((await admin.post('/api/admin/videos/assignments').send({ video_id: 'loose', expert_id: 'nobody-here' })).body.error).toBe('expert_not_found');
    expect((await admin.post('/api/admin/videos/assignments').send({ video_id: 'loose' })).status).toBe(400);
    expect((await admin.post('/api/admin/videos/assignments').send({ video_id: '../x', expert_id: expertId })).status).toBe(400);
    expect((await expertA.post('/api/admin/videos/assignments').send({ video_id: 'loose', expert_id: expertId })).status).toBe(403);
    expect((await expertA.get('/api/admin/videos/assignments')).status).toBe(403);
    expect((await t.agent().get('/api/admin/videos/assignments')).status).toBe(401);
  });
});

describe('media serving', () => {
  it('serves the video with Range (206) to those who may see it', async () => {
    const full = await admin.get('/media/videos/assigned/video');
    expect(full.status).toBe(200);
    expect(full.headers['accept-ranges']).toBe('bytes');
    const size = fs.statSync(path.join(t.dataDir, 'videos', 'assigned', 'video.mp4')).size;
    const part = await childA.get('/media/videos/assigned/video').set('Range', 'bytes=100-199');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${size}`);
    expect(Number(part.headers['content-length'])).toBe(100);
    expect((await expertA.get('/media/videos/sample/video').set('Range', 'bytes=0-')).status).toBe(206);
  });

  it('serves the thumbnail and the subtitles, 404 when there are none', async () => {
    const thumb = await childA.get('/media/videos/assigned/thumbnail');
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    const subs = await childA.get('/media/videos/assigned/subtitles');
    expect(subs.headers['content-type']).toMatch(/^text\/vtt/);
    expect(subs.text).toContain('Hello');
    expect((await childA.get('/media/videos/sample/thumbnail')).status).toBe(404);
  });

  it('refuses anonymous callers, other families, unknown and malformed ids', async () => {
    expect((await t.agent().get('/media/videos/assigned/video')).status).toBe(401);
    expect((await childA.get('/media/videos/claimedB/video')).status).toBe(403);
    expect((await expertA.get('/media/videos/claimedB/thumbnail')).status).toBe(403);
    expect((await admin.get('/media/videos/nosuchvideo/video')).status).toBe(404);
    expect((await admin.get('/media/videos/partial/video')).status).toBe(404);
    for (const bad of ['..%2F..%2Fapp.sqlite', '.hidden', 'a.b', '%00x']) expect((await admin.get(`/media/videos/${bad}/video`)).status, bad).toBe(400);
  });
});

describe('DELETE /api/admin/videos/{video_id}', () => {
  it("removes the video, its relations and files, keeps the children's attempts, and remembers the delete", async () => {
    const child = famA.child.child_id;
    const saved = await childA.post('/api/save-quiz-score').send({ child_id: child, video_id: 'assigned', percentage: 80 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await childA.put(`/api/quiz/checkpoints/${child}/assigned`).send({ position_seconds: 1 })).status).toBe(200);
    expect((await expertA.delete('/api/admin/videos/assigned')).status).toBe(403);
    expect((await childA.delete('/api/admin/videos/assigned')).status).toBe(403);
    expect((await t.agent().delete('/api/admin/videos/assigned')).status).toBe(401);

    const res = await admin.delete('/api/admin/videos/assigned');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, video_id: 'assigned', title: 'Assigned video', is_sample: false, attempts_kept: 1, checkpoints_removed: 1 });
    expect(await t.db.first('SELECT 1 AS x FROM videos WHERE id = ?', ['assigned'])).toBeUndefined();
    expect(await t.db.all('SELECT * FROM video_assignments WHERE video_id = ?', ['assigned'])).toEqual([]);
    expect(await t.db.all('SELECT * FROM review_questions WHERE video_id = ?', ['assigned'])).toEqual([]);
    expect(await t.db.first('SELECT title, is_sample FROM deleted_videos WHERE id = ?', ['assigned'])).toEqual({ title: 'Assigned video', is_sample: 0 });
    expect(await t.db.first('SELECT percentage, video_title FROM quiz_attempts WHERE id = ?', [saved.body.attempt_id])).toEqual({ percentage: 80, video_title: 'Assigned video' });
    expect(fs.existsSync(path.join(t.dataDir, 'videos', 'assigned'))).toBe(false);
    expect(fs.readdirSync(path.join(t.dataDir, 'videos')).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(ids((await childA.get('/api/kids_videos')).body.videos)).not.toContain('assigned');
    expect((await childA.get(`/api/get-quiz-scores/${child}`)).body.attempts.map((a: { video_id: string }) => a.video_id)).toContain('assigned');
    expect((await admin.delete('/api/admin/videos/assigned')).status).toBe(404);
  });

  it('refuses while a job holds the video, and bad ids', async () => {
    await t.db.run("INSERT INTO video_locks (key, kind, owner) VALUES ('video:loose', 'frames', 'test')");
    const busy = await admin.delete('/api/admin/videos/loose');
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ success: false, error: 'video_busy' });
    await t.db.run("DELETE FROM video_locks WHERE key = 'video:loose'");
    expect(await t.db.first('SELECT 1 AS x FROM videos WHERE id = ?', ['loose'])).toEqual({ x: 1 });
    expect((await admin.delete('/api/admin/videos/partial')).status).toBe(409);
    expect((await admin.delete('/api/admin/videos/..%2Fx')).status).toBe(400);
  });
});
