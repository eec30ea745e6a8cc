import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { loginAdmin, startTestApp, type TestApp } from '../helpers/app.js';
import { SAMPLE_DIR, importSample, readSampleManifest } from '../../src/sample/sample.service.js';
import { finalQuestions } from '../../src/questions/final.service.js';
import { canSeeVideo } from '../../src/videos/access.js';
import { listUnclaimedVideos, listVideos } from '../../src/videos/videos.repository.js';
import { COMPANIONS } from '../../src/config.js';
import { Db, migrate } from '../../src/db/database.js';
import { fileURLToPath } from 'node:url';

// The start-up import on a real app with a temp data dir and SQLite file.

const manifest = readSampleManifest();
const ID = manifest.video_id;
const payload = JSON.parse(fs.readFileSync(path.join(SAMPLE_DIR, 'questions.json'), 'utf8'));

let apps: TestApp[] = [];
const tmpDirs: string[] = [];
afterEach(async () => {
  for (const a of apps.reverse()) await a.close();
  apps = [];
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await startTestApp({ SAMPLE_IMPORT: 'true', ...env });
  apps.push(t);
  return t;
}

async function restart(t: TestApp, env: Record<string, string> = {}): Promise<TestApp> {
  apps = apps.filter((a) => a !== t);
  const next = await t.restart(env);
  apps.push(next);
  return next;
}

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const videoDir = (t: TestApp) => path.join(t.dataDir, 'videos', ID);

/** everything the import writes, to compare before and after a second start */
async function snapshot(t: TestApp) {
  const files = Object.keys(manifest.checksums).map((rel) => {
    const st = fs.statSync(path.join(videoDir(t), rel));
    return [rel, st.size, st.mtimeMs, st.ino];
  });
  return {
    video: await t.db.all('SELECT * FROM videos'),
    segments: await t.db.all('SELECT * FROM review_segments ORDER BY start_seconds'),
    questions: await t.db.all('SELECT * FROM review_questions ORDER BY id'),
    variants: await t.db.all('SELECT * FROM persona_variants ORDER BY id'),
    winners: await t.db.all('SELECT * FROM persona_winners ORDER BY start_seconds, companion'),
    files,
  };
}

describe('sample import on start', () => {
  it('creates the row, copies the files and imports final questions for all three companions', async () => {
    const t = await start();
    const row = await t.db.first<Record<string, unknown>>('SELECT * FROM videos WHERE id = ?', [ID]);
    expect(row).toMatchObject({
      id: ID,
      title: manifest.title,
      duration_seconds: manifest.duration_seconds,
      video_file: manifest.files.video,
      thumbnail_file: manifest.files.thumbnail,
      subtitle_file: manifest.files.subtitles,
      info_file: manifest.files.info,
      frame_count: manifest.frame_count,
      state: 'downloaded',
      is_sample: 1,
    });

    for (const [rel, sum] of Object.entries(manifest.checksums)) {
      expect(sha(path.join(videoDir(t), rel)), rel).toBe(sum.sha256);
    }
    // no temp folders left beside it
    expect(fs.readdirSync(path.join(t.dataDir, 'videos')).filter((n) => n.startsWith('.'))).toEqual([]);

    expect(await t.db.first('SELECT COUNT(*) AS n FROM review_segments WHERE video_id = ? AND finalized = 1', [ID])).toEqual({ n: payload.segments.length });
    expect(await t.db.first('SELECT COUNT(*) AS n FROM persona_winners WHERE video_id = ?', [ID])).toEqual({ n: payload.segments.length * 3 });

    const base = await finalQuestions(t.db, ID, null);
    expect(base).toHaveLength(payload.segments.length);
    for (const companion of COMPANIONS) {
      const served = await finalQuestions(t.db, ID, companion);
      expect(served).toHaveLength(payload.segments.length);
      served.forEach((q, i) => {
        const seg = payload.segments[i];
        const top = seg.questions.find((x: { expert_ranking: number }) => x.expert_ranking === 1);
        const wording = top.variants.find((v: { companion: string }) => v.companion === companion).question;
        expect(q).toMatchObject({
          segment_range_start: seg.segment_range_start,
          segment_range_end: seg.segment_range_end,
          question: wording,
          answer: top.answer,
          question_type: top.question_type,
          companion,
        });
        expect(q.answer).toBe(base[i]!.answer);
        expect(q.question).not.toBe(base[i]!.question);
      });
    }
    // the questions export beside the media (question_file in the admin list)
    expect(fs.existsSync(path.join(videoDir(t), 'questions.json'))).toBe(true);
  });

  it('is a library video: without the demo family nobody sees it, and it is available for experts to claim', async () => {
    const t = await start();
    expect(await t.db.all('SELECT * FROM video_assignments')).toEqual([]);
    expect(await canSeeVideo(t.db, { role: 'expert', expertId: 'someone-new' }, ID)).toBe(false);
    expect(await canSeeVideo(t.db, { role: 'child', expertId: 'another-expert', parentId: 'p_0123456789' }, ID)).toBe(false);
    expect(await canSeeVideo(t.db, { role: 'anonymous' }, ID)).toBe(false);
    expect(await canSeeVideo(t.db, { role: 'admin' }, ID)).toBe(true);
    expect(await listVideos(t.db, { expertId: 'expert-a' })).toEqual([]);
    expect((await listUnclaimedVideos(t.db)).map((v) => [v.id, v.isSample])).toEqual([[ID, true]]);
  });

  it('is assigned to the demo expert when the demo family is created on first start, and to nobody else', async () => {
    const t = await start({ DEMO_SEED: 'true' });
    expect(await t.db.all('SELECT video_id, expert_id FROM video_assignments')).toEqual([{ video_id: ID, expert_id: 'demo' }]);
    expect((await listVideos(t.db, { expertId: 'demo' })).map((v) => [v.id, v.isSample, v.videoFile])).toEqual([[ID, true, manifest.files.video]]);
    const demoChild = (await t.db.first<{ parent_id: string }>("SELECT parent_id FROM children WHERE expert_id = 'demo'"))!;
    expect(await canSeeVideo(t.db, { role: 'child', expertId: 'demo', parentId: demoChild.parent_id }, ID)).toBe(true);
    expect(await canSeeVideo(t.db, { role: 'expert', expertId: 'someone-new' }, ID)).toBe(false);
    // still unclaimed: the demo expert has it by assignment, another expert may claim it
    expect((await listUnclaimedVideos(t.db)).map((v) => v.id)).toEqual([ID]);
  });

  it("keeps an admin's unassign and delete across restarts (a deleted sample is not re-imported)", async () => {
    const t = await start({ DEMO_SEED: 'true' });
    const admin = await loginAdmin(t.agent());
    expect((await admin.delete(`/api/admin/videos/assignments/${ID}/demo`)).status).toBe(200);
    let again = await restart(t);
    expect(await again.db.all('SELECT * FROM video_assignments')).toEqual([]);
    expect(await again.db.first('SELECT is_sample FROM videos WHERE id = ?', [ID])).toEqual({ is_sample: 1 });

    const del = await (await loginAdmin(again.agent())).delete(`/api/admin/videos/${ID}`);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body).toMatchObject({ success: true, video_id: ID, is_sample: true });
    expect(fs.existsSync(videoDir(again))).toBe(false);
    expect(await again.db.first('SELECT is_sample FROM deleted_videos WHERE id = ?', [ID])).toEqual({ is_sample: 1 });

    again = await restart(again);
    expect(await again.db.first('SELECT COUNT(*) AS n FROM videos')).toEqual({ n: 0 });
    expect(await again.db.first('SELECT COUNT(*) AS n FROM review_questions')).toEqual({ n: 0 });
    expect(fs.existsSync(videoDir(again))).toBe(false);
    expect(await importSample(again.db, again.dataDir)).toMatchObject({ video_id: ID, deleted: true, copied: false, inserted: false });
    expect(fs.existsSync(videoDir(again))).toBe(false);
  });

  it('keeps the demo family playing an already imported sample when an install upgrades (migration 007)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-migrate-'));
    tmpDirs.push(dir);
    const migrations = path.join(dir, 'migrations');
    fs.mkdirSync(migrations);
    const all = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'db', 'migrations');
    for (const f of fs.readdirSync(all).filter((f) => f < '005')) fs.copyFileSync(path.join(all, f), path.join(migrations, f));
    const db = new Db(path.join(dir, 'old.sqlite'));
    try {
      migrate(db, migrations);
      await db.run("INSERT INTO experts (id, display_name) VALUES ('demo', 'Demo Parent'), ('other', 'Other')");
      await db.run(`INSERT INTO videos (id, title, is_sample) VALUES (?, 'Sample', 1), ('plain', 'Plain', 0)`, [ID]);
      expect(migrate(db, all)).toContain('007-library-sample.sql');
      expect(await db.all('SELECT video_id, expert_id FROM video_assignments')).toEqual([{ video_id: ID, expert_id: 'demo' }]);
    } finally {
      void db.close();
    }
  });

  it('changes nothing on a second start', async () => {
    const t = await start();
    const before = await snapshot(t);
    const again = await restart(t);
    expect(await snapshot(again)).toEqual(before);
    expect(await importSample(again.db, again.dataDir)).toEqual({ video_id: ID, deleted: false, assigned_to: null, copied: false, inserted: false, questions: null });
    expect(await snapshot(again)).toEqual(before);
  });

  it('restores missing files without touching the questions or files others wrote', async () => {
    const t = await start();
    const edited = 'What is the name of the pink pig?';
    await t.db.run('UPDATE review_questions SET question = ? WHERE video_id = ? AND start_seconds = 0 AND expert_ranking = 1', [edited, ID]);
    const questions = await t.db.all('SELECT * FROM review_questions ORDER BY id');
    fs.rmSync(path.join(videoDir(t), manifest.files.video));
    fs.rmSync(path.join(videoDir(t), manifest.files.frames_dir, 'frame_00003.jpg'));
    fs.writeFileSync(path.join(videoDir(t), 'notes.txt'), 'kept');

    const again = await restart(t);
    expect(sha(path.join(videoDir(again), manifest.files.video))).toBe(manifest.checksums[manifest.files.video]!.sha256);
    expect(fs.existsSync(path.join(videoDir(again), manifest.files.frames_dir, 'frame_00003.jpg'))).toBe(true);
    expect(fs.readFileSync(path.join(videoDir(again), 'notes.txt'), 'utf8')).toBe('kept');
    expect(await again.db.all('SELECT * FROM review_questions ORDER BY id')).toEqual(questions);
    expect((await finalQuestions(again.db, ID, null))[0]!.question).toBe(edited);
    expect(await again.db.first('SELECT COUNT(*) AS n FROM videos')).toEqual({ n: 1 });
  });

  it('does not bring back the bundled frames once the sample was extracted again into a frame set', async () => {
    const t = await start();
    // as a re-extraction leaves it: the row names a set, the bundled frames/ folder is gone
    fs.renameSync(path.join(videoDir(t), manifest.files.frames_dir), path.join(videoDir(t), 'frames-abc123'));
    await t.db.run("UPDATE videos SET frames_set = 'frames-abc123' WHERE id = ?", [ID]);
    fs.rmSync(path.join(videoDir(t), manifest.files.thumbnail));

    const again = await restart(t);
    // the missing thumbnail is restored; frames/ is not (it is no longer this video's frames)
    expect(fs.existsSync(path.join(videoDir(again), manifest.files.thumbnail))).toBe(true);
    expect(fs.existsSync(path.join(videoDir(again), manifest.files.frames_dir))).toBe(false);
    expect(await again.db.first('SELECT frames_set FROM videos WHERE id = ?', [ID])).toEqual({ frames_set: 'frames-abc123' });
    // and nothing is missing any more: a further start copies nothing
    expect((await importSample(again.db, again.dataDir)).copied).toBe(false);
  });

  it('imports nothing when SAMPLE_IMPORT is off', async () => {
    const t = await start({ SAMPLE_IMPORT: 'false' });
    expect(await t.db.first('SELECT COUNT(*) AS n FROM videos')).toEqual({ n: 0 });
    expect(fs.existsSync(videoDir(t))).toBe(false);
  });

  it('refuses a sample whose files do not match the manifest, leaving nothing half-done', async () => {
    const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-sample-'));
    tmpDirs.push(broken);
    fs.cpSync(SAMPLE_DIR, broken, { recursive: true });
    fs.appendFileSync(path.join(broken, 'media', manifest.files.subtitles), '\nextra\n');
    const t = await start({ SAMPLE_IMPORT: 'false' });
    await expect(importSample(t.db, t.dataDir, broken)).rejects.toThrow(/does not match/);
    expect(fs.existsSync(videoDir(t))).toBe(false);
    expect(fs.readdirSync(path.join(t.dataDir, 'videos'))).toEqual([]);
    expect(await t.db.first('SELECT COUNT(*) AS n FROM videos')).toEqual({ n: 0 });
  });

  it('rolls the row back when the questions are invalid', async () => {
    const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-sample-'));
    tmpDirs.push(broken);
    fs.cpSync(SAMPLE_DIR, broken, { recursive: true });
    const bad = structuredClone(payload);
    bad.segments[0].questions[0].question_type = 'riddle';
    fs.writeFileSync(path.join(broken, 'questions.json'), JSON.stringify(bad));
    const t = await start({ SAMPLE_IMPORT: 'false' });
    await expect(importSample(t.db, t.dataDir, broken)).rejects.toThrow(/Invalid reviewed questions/);
    expect(await t.db.first('SELECT COUNT(*) AS n FROM videos')).toEqual({ n: 0 });
    expect(await t.db.first('SELECT COUNT(*) AS n FROM review_questions')).toEqual({ n: 0 });
  });
});
