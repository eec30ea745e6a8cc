import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { makeClip, writeVideoPage, writeVtt } from '../fixtures/media.js';
import { FakeProvider } from '../fake-provider/server.js';
import { createTestDatabase } from '../helpers/pg-cluster.js';
import type { InstanceProcess } from '../helpers/instance-process.js';
import { startS3rver, type TestBucket } from '../storage/s3rver.js';
import { S3MediaStore } from '../../src/storage/index.js';
import { frameSetsIn } from '../../src/storage/keys.js';
import { jpegSize } from '../../src/questions/segment-input.js';
import { readSampleManifest } from '../../src/sample/sample.service.js';
import { filesUnder, isMediaFile, startDistrict, stopInstances, Tablet, waitForJob, type Reply } from './tablet.js';

/**
 * Issue #18 "Done when": with DATABASE_URL, S3_* and JOB_CONCURRENCY=0, two web instances and one
 * `worker` serve the contract's whole flow, every consecutive request landing on the other
 * instance, with no media in any DATA_DIR. Real processes, one PostgreSQL database, one s3rver
 * bucket, the real yt-dlp and ffmpeg; questions from the built-in provider (no keys) and, for
 * one segment, from an SDK provider pointed at the fake provider (so frames are read and sent).
 * Every step checks the response body and the rows in PostgreSQL, read directly with `pg`.
 */
const pgUrl = inject('pgUrl');
const ADMIN_PASSWORD = 'whole-flow-admin-pw';
/** each step's time limit: a loaded 2-core machine runs yt-dlp, ffmpeg, PostgreSQL and four Node processes */
const STEP_MS = 180_000;

let db: { url: string; drop(): Promise<void> };
let sql: pg.Client;
let s3: TestBucket;
let bucket: S3MediaStore;
let fx: FixtureServer;
let ai: FakeProvider;
let root: string;
let a: InstanceProcess;
let b: InstanceProcess;
let worker: InstanceProcess;

/** Round robin: each call gives the other web instance, as a load balancer would. */
let turn = 0;
const next = (): InstanceProcess => (turn++ % 2 ? b : a);

const row = async <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T | undefined> => (await sql.query(text, params)).rows[0] as T | undefined;
const rows = async <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => (await sql.query(text, params)).rows as T[];
const ok = (r: Reply, status = 200) => expect(r.status, JSON.stringify(r.body).slice(0, 2000)).toBe(status);

const admin = new Tablet();
const expert = new Tablet();
const kid = new Tablet();
const state = { videoId: '', expertId: 'flow-expert', expertCode: 'flow-expert-code-1', parentCode: 'flow-family-code-1', childId: '', parentId: '', frameCount: 0 };

describe.skipIf(!pgUrl)("the contract's whole flow on two web instances and a worker (PostgreSQL + bucket)", () => {
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-flow-'));
    makeClip(path.join(root, 'lesson.mp4'), { seconds: 12 });
    writeVtt(path.join(root, 'lesson.vtt'), [
      [0, 3, 'The little bunny hops into the garden'],
      [3, 6, 'She finds a big orange carrot'],
      [6, 9, 'The pig rolls in the mud and laughs'],
      [9, 12, 'They share the carrot and go home happy'],
    ]);
    writeVideoPage(path.join(root, 'lesson.html'), 'Bunny in the garden', 'lesson.mp4', 'lesson.vtt');
    fx = await startFixtureServer(root);
    ai = await FakeProvider.start();
    s3 = await startS3rver('kvq-flow'); // also sets the AWS_* credentials the processes inherit
    bucket = new S3MediaStore({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true });
    db = await createTestDatabase(pgUrl, 'flow');
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    const env = {
      DATABASE_URL: db.url,
      ...s3.env,
      ADMIN_PASSWORD,
      DOWNLOAD_EXTRA_HOSTS: '127.0.0.1',
      DOWNLOAD_AUTH_MODE: 'none',
      QUESTION_PROVIDER: 'builtin',
      // the web instances import the bundled sample at start, both at once, into the bucket
      SAMPLE_IMPORT: 'true',
    };
    ({ a, b, worker } = await startDistrict(env, ai.env()));
  }, 240_000);

  afterAll(async () => {
    await stopInstances([a, b, worker]);
    await sql?.end();
    await db?.drop();
    bucket?.close();
    await s3?.close();
    await fx?.close();
    await ai?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('1. admin logs in on one instance and is known on the other', async () => {
    ok(await admin.call(next(), 'POST', '/api/admin/verify-access', { json: { password: ADMIN_PASSWORD } }));
    const me = await admin.call(next(), 'GET', '/api/me');
    expect(me.body).toMatchObject({ role: 'admin' });
    // one session row, in PostgreSQL
    expect(Number((await row<{ n: string }>('SELECT COUNT(*) AS n FROM sessions'))!.n)).toBeGreaterThanOrEqual(1);
  }, STEP_MS);

  it('2. downloads with Prefer: respond-async: the worker does the job, the other instance reports it', async () => {
    const queued = await admin.call(next(), 'POST', '/api/download', { form: { url: `${fx.url}/lesson.html` }, headers: { prefer: 'respond-async' } });
    ok(queued, 202);
    expect(queued.body).toMatchObject({ success: true, job_id: expect.any(String) });
    expect(queued.headers.get('preference-applied')).toBe('respond-async');
    const job = await waitForJob(admin, [next(), next()], String(queued.body.job_id));
    expect(job.state, JSON.stringify(job)).toBe('succeeded');
    const result = job.result as Record<string, unknown>;
    // yt-dlp's generic extractor names a page's <video> entry '<page> (1)'
    expect(result).toMatchObject({ success: true, video_id: expect.any(String), title: expect.stringMatching(/^Bunny in the garden/) });
    state.videoId = String(result.video_id);
    expect(result.local_path).toBe(`/media/videos/${state.videoId}/video`);
    // the job ran in the worker: its row says so, and the web instances logged no download
    const jobRow = await row('SELECT kind, state FROM jobs WHERE id = $1', [queued.body.job_id]);
    expect(jobRow).toEqual({ kind: 'download', state: 'succeeded' });
    await expect.poll(() => worker.output(), { timeout: 30_000 }).toContain('video downloaded');
    for (const web of [a, b]) expect(web.output()).not.toContain('video downloaded');
    const video = await row('SELECT state, video_file, subtitle_file, frame_count FROM videos WHERE id = $1', [state.videoId]);
    expect(video).toMatchObject({ state: 'downloaded', video_file: 'video.mp4', frame_count: 0 });
    expect(String(video!.subtitle_file)).toMatch(/\.vtt$/);
    // the media are in the bucket
    const keys = await bucket.list(`videos/${state.videoId}/`);
    expect(keys).toEqual(expect.arrayContaining([`videos/${state.videoId}/video.mp4`, `videos/${state.videoId}/thumbnail.jpg`, `videos/${state.videoId}/${video!.subtitle_file}`]));
    // and either instance serves the video with Range
    const source = fs.readFileSync(path.join(root, 'lesson.mp4'));
    for (const inst of [next(), next()]) {
      const part = await admin.call(inst, 'GET', `/media/videos/${state.videoId}/video`, { headers: { range: 'bytes=100-299' } });
      ok(part, 206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-299/${source.length}`);
      expect(Buffer.compare(part.body, source.subarray(100, 300))).toBe(0);
    }
  }, STEP_MS);

  it('3. extracts frames as a job too, into the bucket, served by both instances', async () => {
    const queued = await admin.call(next(), 'POST', `/api/frames/${state.videoId}`, { headers: { prefer: 'respond-async' } });
    ok(queued, 202);
    const job = await waitForJob(admin, [next(), next()], String(queued.body.job_id));
    expect(job.state, JSON.stringify(job)).toBe('succeeded');
    const result = job.result as Record<string, unknown>;
    expect(result).toMatchObject({ success: true, video_id: state.videoId, count: 12 });
    // a new frame set, named by the row with the count (one UPDATE), in the bucket
    const video = await row<{ frame_count: number; frames_set: string }>('SELECT frame_count, frames_set FROM videos WHERE id = $1', [state.videoId]);
    expect(video).toEqual({ frame_count: 12, frames_set: expect.stringMatching(/^frames-[a-z0-9]+$/) });
    expect(result.output_dir).toBe(`s3://${s3.bucket}/videos/${state.videoId}/${video!.frames_set}/`);
    expect((result.files as string[]).every((f) => f.startsWith(String(result.output_dir)))).toBe(true);
    state.frameCount = 12;
    // extracted by the worker, not by a web instance
    await expect.poll(() => worker.output(), { timeout: 30_000 }).toContain('frames extracted');
    for (const web of [a, b]) expect(web.output()).not.toContain('frames extracted');
    // the manifest served by one instance names frames the other serves, byte for byte from the bucket
    const manifest = await admin.call(next(), 'GET', `/media/videos/${state.videoId}/frames/frames.json`);
    ok(manifest);
    expect(manifest.body).toMatchObject({ video_id: state.videoId, fps: 1, count: 12 });
    const frames = manifest.body.frames as { file: string; subtitle: string }[];
    expect(frames[4]!.subtitle).toBe('She finds a big orange carrot');
    const served = await admin.call(next(), 'GET', `/media/videos/${state.videoId}/frames/${frames[4]!.file}`);
    ok(served);
    const inBucket = (await bucket.list(`videos/${state.videoId}/`)).find((k) => k.endsWith(`/${frames[4]!.file}`));
    expect(inBucket).toBeDefined();
    expect(Buffer.compare(served.body, (await bucket.getBuffer(inBucket!))!)).toBe(0);
    // the admin list shows it from either instance
    const list = await admin.call(next(), 'GET', '/api/admin/videos');
    ok(list);
    const item = (list.body.videos as Record<string, unknown>[]).find((v) => v.video_id === state.videoId);
    expect(item).toMatchObject({ has_frames: true, frame_count: 12, has_questions: false, question_file: '' });
    expect(String(item!.frames_dir)).toBe(result.output_dir);
  }, STEP_MS);

  it('4. generates questions over the WebSocket on one instance, reading the frames manifest and subtitles from the bucket', async () => {
    const inst = next();
    const events = await admin.socket(inst, `/ws/questions/${state.videoId}`, { start_seconds: 0, interval_seconds: 5, full_duration: true }, (m) => m.type === 'done' || m.type === 'error');
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('status');
    expect(types.at(-1), JSON.stringify(events)).toBe('done');
    // segments run concurrently: their results come in any order
    const results = events.filter((e) => e.type === 'segment_result').sort((x, y) => Number(x.segment_range_start) - Number(y.segment_range_start));
    expect(results.map((r) => [r.segment_range_start, r.segment_range_end, r.ok])).toEqual([
      [0, 5, true],
      [5, 12, true],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'done', video_id: state.videoId, provider: 'builtin', total: 2, generated: 2, failed: 0 });
    expect(events.filter((e) => e.type === 'status' && e.phase === 'progress')).toHaveLength(2);
    // the instance that held the socket did the run (not the worker, not the other instance)
    // (the log line is written just after the done event: wait for it to come through the pipe)
    await expect.poll(() => inst.output(), { timeout: 30_000 }).toContain('generation done');
    expect((inst === a ? b : a).output()).not.toContain('generation done');
    expect(worker.output()).not.toContain('generation done');
    const stored = await rows<{ segment_start: number; status: string; provider: string }>(
      'SELECT start_seconds AS segment_start, status, provider FROM question_segments WHERE video_id = $1 ORDER BY start_seconds',
      [state.videoId],
    );
    expect(stored.map((s) => [s.segment_start, s.status, s.provider])).toEqual([
      [0, 'ok', 'builtin'],
      [5, 'ok', 'builtin'],
    ]);
  }, STEP_MS);

  it('5. a provider that looks at pictures gets the frames from the bucket (the instance has none on disk)', async () => {
    const inst = next();
    const before = ai.requests.length;
    const events = await admin.socket(
      inst,
      `/ws/questions/${state.videoId}`,
      { start_seconds: 0, interval_seconds: 5, full_duration: false, provider: 'openai', regenerate: true },
      (m) => m.type === 'done' || m.type === 'error',
    );
    expect(events.at(-1), JSON.stringify(events)).toMatchObject({ type: 'done', provider: 'openai', generated: 1, failed: 0 });
    const asked = ai.requests.slice(before);
    expect(asked).toHaveLength(1);
    // five frames of 0..5 s, at the size they have in the bucket
    const frameKey = (await bucket.list(`videos/${state.videoId}/`)).find((k) => k.endsWith('/frame_00000.jpg'))!;
    const size = jpegSize((await bucket.getBuffer(frameKey))!);
    expect(asked[0]!.images).toBe(5);
    expect(asked[0]!.imageSizes).toEqual(Array(5).fill(size));
    expect(filesUnder(inst.dataDir).filter(isMediaFile)).toEqual([]);
    expect(await row('SELECT provider, status FROM question_segments WHERE video_id = $1 AND start_seconds = 0', [state.videoId])).toEqual({ provider: 'openai', status: 'ok' });
  }, STEP_MS);

  it('5b. one generation run per video across instances: a second socket on the other instance is told so; closing the first cancels it', async () => {
    const before = ai.requests.length;
    ai.script = ['hang']; // the provider never answers: the run stays in progress until cancelled
    const first = await admin.connect(a, `/ws/questions/${state.videoId}`);
    first.send({ start_seconds: 5, interval_seconds: 7, full_duration: false, provider: 'openai', regenerate: true });
    await ai.waitForRequests(before + 1);
    const second = await admin.socket(b, `/ws/questions/${state.videoId}`, { start_seconds: 0, interval_seconds: 5, full_duration: true }, (m) => m.type === 'error' || m.type === 'done');
    expect(second.at(-1)).toMatchObject({ type: 'error', code: 'run_in_progress' });
    await first.close(); // cancels the provider call in flight; the lease is released
    // once released, the other instance runs (the builtin provider skips the finished segments)
    let events: Record<string, unknown>[] = [];
    for (let i = 0; i < 300; i++) {
      events = await admin.socket(b, `/ws/questions/${state.videoId}`, { start_seconds: 0, interval_seconds: 5, full_duration: true }, (m) => m.type === 'error' || m.type === 'done');
      if (events.at(-1)?.code !== 'run_in_progress') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(events.at(-1), JSON.stringify(events)).toMatchObject({ type: 'done', total: 2, skipped: 2, generated: 0 });
    await expect.poll(() => ai.requests[before]!.aborted, { timeout: 30_000 }).toBe(true);
    // the cancelled run stored nothing: segment 5..12 keeps what the builtin provider generated
    expect(await row('SELECT provider, status FROM question_segments WHERE video_id = $1 AND start_seconds = 5', [state.videoId])).toEqual({ provider: 'builtin', status: 'ok' });
  }, STEP_MS);

  it('6. an expert reviews, edits and finalizes on the other instances; the export is readable from any instance', async () => {
    ok(await admin.call(next(), 'POST', '/api/admin/experts', { json: { expert_id: state.expertId, display_name: 'Flow Expert', password: state.expertCode } }));
    const child = await admin.call(next(), 'POST', '/api/admin/children', { json: { expert_id: state.expertId, first_name: 'Mia' } });
    ok(child);
    state.childId = String((child.body.child as Record<string, unknown>).child_id);
    state.parentId = String((child.body.child as Record<string, unknown>).parent_id);
    ok(await admin.call(next(), 'POST', '/api/admin/videos/assignments', { json: { video_id: state.videoId, expert_id: state.expertId } }));

    ok(await expert.call(next(), 'POST', '/api/expert/login', { json: { access_code: state.expertCode } }));
    ok(await expert.call(next(), 'PUT', `/api/expert/parents/${state.parentId}/login-code`, { json: { login_code: state.parentCode } }));
    const review = await expert.call(next(), 'GET', `/api/expert-questions/${state.videoId}`);
    ok(review);
    const segments = review.body.segments as { segment_range_start: number; segment_range_end: number; questions: { id: number; question: string; answer: string; question_type: string }[] }[];
    expect(segments.map((s) => [s.segment_range_start, s.segment_range_end])).toEqual([
      [0, 5],
      [5, 12],
    ]);
    expect(segments.every((s) => s.questions.length > 0)).toBe(true);
    // edit one question's wording and answer, on the other instance
    const first = segments[0]!.questions[0]!;
    const edited = await expert.call(next(), 'POST', `/api/expert/video/${state.videoId}/update-questions`, {
      json: { questions: [{ id: first.id, question: 'What does the bunny find?', answer: 'a carrot', expert_ranking: 1 }] },
    });
    ok(edited);
    expect(await row('SELECT question, answer, expert_ranking FROM review_questions WHERE id = $1', [first.id])).toEqual({
      question: 'What does the bunny find?',
      answer: 'a carrot',
      expert_ranking: 1,
    });
    // an AI action from the review page reads the frames from the bucket too (save:false: only shown)
    const before = ai.requests.length;
    const regen = await expert.call(next(), 'POST', `/api/expert/video/${state.videoId}/regenerate-question`, {
      json: { question_id: segments[1]!.questions[0]!.id, provider: 'openai', save: false },
    });
    ok(regen);
    expect(regen.body).toMatchObject({ success: true, saved: false, provider: 'openai', question: { segment_range_start: 5, segment_range_end: 12 } });
    expect(ai.requests.slice(before).map((r) => r.images)).toEqual([5]);

    const fin = await expert.call(next(), 'POST', '/api/save-final-questions', {
      json: { video_id: state.videoId, segments: segments.map((s) => ({ segment_range_start: s.segment_range_start, segment_range_end: s.segment_range_end })) },
    });
    ok(fin);
    expect(fin.body).toMatchObject({ success: true, file_url: `/api/questions-export/${state.videoId}` });
    expect(await rows('SELECT start_seconds AS segment_start, finalized FROM review_segments WHERE video_id = $1 ORDER BY start_seconds', [state.videoId])).toEqual([
      { segment_start: 0, finalized: 1 },
      { segment_start: 5, finalized: 1 },
    ]);
    // the export is a copy of the database in the bucket, served by both instances
    expect(String(fin.body.file_path)).toBe(`s3://${s3.bucket}/videos/${state.videoId}/questions.json`);
    for (const inst of [next(), next()]) {
      const exp = await expert.call(inst, 'GET', `/api/questions-export/${state.videoId}`);
      ok(exp);
      expect(exp.body).toMatchObject({ video_id: state.videoId });
      expect(JSON.stringify(exp.body)).toContain('What does the bunny find?');
    }
    const list = await admin.call(next(), 'GET', '/api/admin/videos');
    expect((list.body.videos as Record<string, unknown>[]).find((v) => v.video_id === state.videoId)).toMatchObject({
      has_questions: true,
      question_file: fin.body.file_path,
    });
  }, STEP_MS);

  it('7. the family logs in, the child sees the video and its final questions, answers, and the score is saved', async () => {
    const login = await kid.call(next(), 'POST', '/api/learners/parents/login', { json: { access_code: state.parentCode } });
    ok(login);
    expect(JSON.stringify(login.body)).toContain(state.childId);
    ok(await kid.call(next(), 'POST', '/api/learners/session/child', { json: { child_id: state.childId } }));
    const videos = await kid.call(next(), 'GET', `/api/learners/children/${state.childId}/videos`);
    ok(videos);
    expect(videos.body).toMatchObject({ success: true, child_id: state.childId, expert_id: state.expertId });
    const mine = (videos.body.videos as Record<string, unknown>[]).find((v) => v.video_id === state.videoId);
    expect(mine).toMatchObject({ title: expect.stringMatching(/^Bunny in the garden/), local_path: `/media/videos/${state.videoId}/video`, has_questions: true, final_question_count: 2 });
    // the child plays it from the other instance
    ok(await kid.call(next(), 'GET', `/media/videos/${state.videoId}/video`, { headers: { range: 'bytes=0-9' } }), 206);

    const final = await kid.call(next(), 'GET', `/api/final-questions/${state.videoId}`);
    ok(final);
    const segs = final.body.segments as { segment_range_start: number; question: string; answer: string }[];
    expect(final.body.success).toBe(true);
    expect(segs).toHaveLength(2);
    expect(segs[0]).toMatchObject({ segment_range_start: 0, question: 'What does the bunny find?', answer: 'a carrot' });

    const right = await kid.call(next(), 'POST', '/api/check_answer', { json: { expected: segs[0]!.answer, user: 'a carrot', question: segs[0]!.question } });
    ok(right);
    expect(right.body).toMatchObject({ status: 'correct', expected: 'a carrot', user: 'a carrot' });
    const wrong = await kid.call(next(), 'POST', '/api/check_answer', { json: { expected: segs[1]!.answer, user: 'a spaceship', question: segs[1]!.question } });
    ok(wrong);
    expect(wrong.body.status).not.toBe('correct');

    const details = [
      { question: segs[0]!.question, expected: segs[0]!.answer, user: 'a carrot', status: right.body.status, similarity: right.body.similarity, timestamp: 5 },
      { question: segs[1]!.question, expected: segs[1]!.answer, user: 'a spaceship', status: wrong.body.status, similarity: wrong.body.similarity, timestamp: 12 },
    ];
    const saved = await kid.call(next(), 'POST', '/api/save-quiz-score', {
      json: { child_id: state.childId, video_id: state.videoId, percentage: 50, total_retries: 1, watch_minutes: 0.2, details },
    });
    ok(saved);
    expect(saved.body).toMatchObject({ success: true, question_count: 2 });
    const attempt = await row<Record<string, unknown>>('SELECT id, child_id, video_id, percentage, question_count, correct_count FROM quiz_attempts WHERE child_id = $1', [state.childId]);
    expect(attempt).toMatchObject({ child_id: state.childId, video_id: state.videoId, percentage: 50, question_count: 2, correct_count: 1 });
    expect(await rows('SELECT position, user_answer FROM quiz_answers WHERE attempt_id = $1 ORDER BY position', [attempt!.id])).toEqual([
      { position: 0, user_answer: 'a carrot' },
      { position: 1, user_answer: 'a spaceship' },
    ]);
  }, STEP_MS);

  it('8. scores and reports read back from the other instances', async () => {
    const scores = await kid.call(next(), 'GET', `/api/get-quiz-scores/${state.childId}`);
    ok(scores);
    expect(JSON.stringify(scores.body)).toContain('a spaceship');
    const report = await kid.call(next(), 'GET', `/api/learners/children/${state.childId}/report`);
    ok(report);
    expect(JSON.stringify(report.body)).toContain('Bunny in the garden');
    const parentView = await expert.call(next(), 'GET', '/api/expert/report');
    ok(parentView);
    expect(JSON.stringify(parentView.body)).toContain(state.childId);
    const full = await admin.call(next(), 'GET', `/api/reports/child/${state.childId}`);
    ok(full);
    expect(JSON.stringify(full.body)).toContain('What does the bunny find?');
  }, STEP_MS);

  it('9. leaves no media in any DATA_DIR: everything is in the bucket, the bundled sample included', async () => {
    for (const inst of [a, b, worker]) expect(filesUnder(inst.dataDir).filter(isMediaFile), inst.kind).toEqual([]);
    const keys = await bucket.list(`videos/${state.videoId}/`);
    const { frames_set: set } = (await row<{ frames_set: string }>('SELECT frames_set FROM videos WHERE id = $1', [state.videoId]))!;
    expect(frameSetsIn(state.videoId, keys)).toEqual([set]);
    const frameKeys = keys.filter((k) => /\/frame_\d+\.jpg$/.test(k));
    expect(frameKeys).toHaveLength(state.frameCount);
    for (const name of ['video.mp4', 'thumbnail.jpg', 'info.json', 'questions.json']) expect(keys).toContain(`videos/${state.videoId}/${name}`);
    expect(keys.some((k) => k.endsWith('.vtt'))).toBe(true);
    expect(keys.some((k) => k.endsWith('/frames.json'))).toBe(true);
    expect(keys.some((k) => k.endsWith('/frames.csv'))).toBe(true);
    const sample = readSampleManifest();
    const sampleKeys = await bucket.list(`videos/${sample.video_id}/`);
    for (const rel of Object.keys(sample.checksums)) expect(sampleKeys).toContain(`videos/${sample.video_id}/${rel}`);
    // imported once although both instances started together; served from the bucket by both
    expect(await rows('SELECT id, frames_set FROM videos WHERE id = $1', [sample.video_id])).toEqual([{ id: sample.video_id, frames_set: null }]);
    const manifestInBucket = JSON.parse((await bucket.getBuffer(`videos/${sample.video_id}/frames/frames.json`))!.toString());
    for (const inst of [next(), next()]) {
      const served = await admin.call(inst, 'GET', `/media/videos/${sample.video_id}/frames/frames.json`);
      ok(served);
      expect(served.body).toEqual(manifestInBucket);
      const part = await admin.call(inst, 'GET', `/media/videos/${sample.video_id}/video`, { headers: { range: 'bytes=0-15' } });
      ok(part, 206);
      expect(part.body).toHaveLength(16);
      const final = await admin.call(inst, 'GET', `/api/final-questions/${sample.video_id}`);
      expect(final.body).toMatchObject({ success: true });
      expect((final.body.segments as unknown[]).length).toBeGreaterThan(0);
    }
  }, STEP_MS);
});
