import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { backupDataDir } from '../../src/ops/backup.service.js';

/** Backups with media in a bucket: the database and secret as always, the media left to the bucket, and said so. */
let t: TestApp | undefined;
const dirs: string[] = [];
afterAll(async () => {
  await t?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('backups with S3_BUCKET', () => {
  it('copy the database and the secret, skip media and record why in the manifest', async () => {
    t = await startTestApp();
    // a leftover local media folder (e.g. from before the move to the bucket) is not what the bucket holds: not copied either
    fs.mkdirSync(path.join(t.dataDir, 'videos', 'abc'), { recursive: true });
    fs.writeFileSync(path.join(t.dataDir, 'videos', 'abc', 'video.mp4'), 'old local copy');
    const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-backups-'));
    dirs.push(backupDir);
    const r = await backupDataDir(t.dataDir, backupDir, { media: true, mediaBucket: 's3://school-bucket/videos/' });
    expect(r.manifest).toMatchObject({ media: false, secret: true, media_note: expect.stringContaining('s3://school-bucket/videos/') });
    expect(r.manifest.media_note).toMatch(/versioning and replication/);
    expect(fs.readdirSync(r.dir)).toEqual(expect.arrayContaining(['app.sqlite', 'backup.json', 'secret.key']));
    expect(fs.readdirSync(r.dir)).not.toContain('videos');
    expect(JSON.parse(fs.readFileSync(path.join(r.dir, 'backup.json'), 'utf8')).media_note).toBe(r.manifest.media_note);

    const local = await backupDataDir(t.dataDir, backupDir, { media: true, now: new Date(Date.now() + 5000) });
    expect(local.manifest.media).toBe(true);
    expect(local.manifest.media_note).toBeUndefined();
    expect(fs.existsSync(path.join(local.dir, 'videos', 'abc', 'video.mp4'))).toBe(true);
  });
});
