import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFamily, loginAdmin, loginChild, startTestApp, type TestApp } from '../helpers/app.js';
import { backupDataDir, listBackups, portInUse, restoreDataDir, MANIFEST_FILE } from '../../src/ops/backup.service.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** what a restore must bring back: people, questions, attempts (with their answers) */
const snapshot = async (t: TestApp) => ({
  experts: await t.db.all('SELECT * FROM experts ORDER BY id'),
  children: await t.db.all('SELECT * FROM children ORDER BY id'),
  questions: await t.db.all('SELECT id, video_id, question, answer FROM review_questions ORDER BY id'),
  attempts: await t.db.all('SELECT * FROM quiz_attempts ORDER BY id'),
  answers: await t.db.all('SELECT * FROM quiz_answers ORDER BY id'),
});

describe('backup and restore', () => {
  it('backs up a running service and restores it into a new data folder with the same people, questions and attempts', async () => {
    const t = await startTestApp({ SAMPLE_IMPORT: 'true' });
    cleanup.push(() => t.close());
    const family = await createFamily(t);
    const child = await loginChild(t.agent(), family);
    const video = (await t.db.first<{ id: string }>('SELECT id FROM videos WHERE is_sample = 1'))!;
    // the sample is a library video like any other: the family sees it through its expert
    await t.db.run('INSERT INTO video_assignments (video_id, expert_id) VALUES (?, ?)', [video.id, family.expert.expert_id]);
    const saved = await child.post('/api/save-quiz-score').send({
      child_id: family.child.child_id,
      video_id: video.id,
      details: [{ question: 'What did Penny find?', expected: 'a red ball', user: 'a red ball', status: 'correct' }],
    });
    expect(saved.status).toBe(200);
    const before = await snapshot(t);
    expect(before.experts.length).toBeGreaterThan(0);
    expect(before.children.length).toBeGreaterThan(0);
    expect(before.questions.length).toBeGreaterThan(0);
    expect(before.attempts).toHaveLength(1);

    // the service keeps running (and writing) while the backup is taken
    const backupDir = tempDir('kvq-backups-');
    const writes = Array.from({ length: 5 }, () => loginAdmin(t.agent()));
    const r = await backupDataDir(t.dataDir, backupDir, { media: true });
    await Promise.all(writes);
    expect(path.basename(r.dir)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/);
    expect(listBackups(backupDir)).toEqual([r.dir]);
    expect(fs.readdirSync(backupDir)).toEqual([path.basename(r.dir)]); // no .partial left
    expect(r.manifest).toMatchObject({ media: true, secret: true, counts: { quiz_attempts: 1, children: before.children.length } });
    expect(fs.statSync(path.join(r.dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(r.dir, 'videos', video.id))).toBe(true);

    const restoredDir = tempDir('kvq-restored-');
    const restored = restoreDataDir(r.dir, restoredDir);
    expect(restored.setAside).toBeUndefined();
    const t2 = await startTestApp({}, restoredDir);
    cleanup.push(() => t2.close()); // keeps restoredDir: it was supplied
    expect(await snapshot(t2)).toEqual(before);
    expect(await t2.db.first<{ ok: string }>('PRAGMA integrity_check')).toEqual({ integrity_check: 'ok' });
    // the server secret came back too: the family's code still opens the tablet session
    const again = await loginChild(t2.agent(), family);
    const me = await again.get('/api/learners/session');
    expect(me.status).toBe(200);
    expect(JSON.stringify(me.body)).toContain(family.child.child_id);
    expect(fs.existsSync(path.join(restoredDir, 'videos', video.id))).toBe(true);
  });

  it('moves what the data folder held aside instead of overwriting it', async () => {
    const dataDir = tempDir('kvq-data-');
    const t = await startTestApp({}, dataDir);
    await createFamily(t);
    const backupDir = tempDir('kvq-backups-');
    const r = await backupDataDir(t.dataDir, backupDir, { media: false });
    expect(r.manifest.media).toBe(false);
    await createFamily(t); // a later change, lost by the restore but kept aside
    const children = (await t.db.all('SELECT id FROM children')).length;
    await t.close(); // keeps dataDir: it was supplied

    const res = restoreDataDir(r.dir, t.dataDir);
    expect(res.setAside).toBeDefined();
    expect(fs.readdirSync(res.setAside!).sort()).toEqual(expect.arrayContaining(['app.sqlite', 'secret.key']));
    const t2 = await startTestApp({}, t.dataDir);
    cleanup.push(() => t2.close());
    expect(await t2.db.all('SELECT id FROM children')).toHaveLength(children - 1);
  });

  it('refuses an incomplete backup folder', async () => {
    const dir = tempDir('kvq-notabackup-');
    expect(() => restoreDataDir(dir, tempDir('kvq-target-'))).toThrow(MANIFEST_FILE);
  });

  it('npm run restore refuses while something answers on the service port', async () => {
    const t = await startTestApp();
    cleanup.push(() => t.close());
    const backupDir = tempDir('kvq-backups-');
    await backupDataDir(t.dataDir, backupDir, { media: false });
    const server = net.createServer((s) => s.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const port = (server.address() as net.AddressInfo).port;
    expect(await portInUse(port, '0.0.0.0')).toBe(true);

    const target = tempDir('kvq-target-');
    const env = { PATH: process.env.PATH ?? '', DATA_DIR: target, BACKUP_DIR: backupDir, PORT: String(port), HOST: '127.0.0.1' };
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'ops', 'backup.cli.ts'), 'restore', 'latest'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`Something answers on port ${port}`);
    expect(fs.existsSync(path.join(target, 'app.sqlite'))).toBe(false);
  });
});
