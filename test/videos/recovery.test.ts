import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.js';

describe('start-up after a crash', () => {
  it('drops interrupted first downloads, stale locks and temp dirs, and keeps finished videos', async () => {
    const first = await startTestApp();
    const videos = path.join(first.dataDir, 'videos');
    await first.db.run("INSERT INTO videos (id, title, state, video_file) VALUES ('done', 'Done', 'downloaded', 'video.mp4')");
    await first.db.run("INSERT INTO videos (id, title, state) VALUES ('crashed', 'Crashed', 'downloading')");
    await first.db.run("INSERT INTO video_locks (key, kind, owner) VALUES ('video:done', 'frames', 'old-process')");
    for (const dir of ['done/frames', 'done/frames-abc123', 'done/.frames.new-abc', 'done/.frames-abc124-new-x1', 'done/.deleted-frames-abc122-x2', 'crashed', '.incoming.dl-123/attempt-none-default']) fs.mkdirSync(path.join(videos, dir), { recursive: true });
    fs.writeFileSync(path.join(videos, 'done', 'video.mp4'), 'x');
    fs.writeFileSync(path.join(videos, 'crashed', 'video.mp4'), 'partial');

    const t = await first.restart();
    try {
      expect(await t.db.all('SELECT id, state FROM videos ORDER BY id')).toEqual([{ id: 'done', state: 'downloaded' }]);
      expect(await t.db.all('SELECT key FROM video_locks')).toEqual([]);
      expect(fs.readdirSync(videos).sort()).toEqual(['done']);
      // work folders, staged and half-deleted frame sets go; frame sets stay (the row says which is current)
      expect(fs.readdirSync(path.join(videos, 'done')).sort()).toEqual(['frames', 'frames-abc123', 'video.mp4']);
    } finally {
      await t.close();
      fs.rmSync(first.dataDir, { recursive: true, force: true });
    }
  });
});
