/**
 * npm run bench:frames — wall time of POST /api/frames/{id} (the whole service path: HTTP,
 * auth, locks, one ffmpeg pass, manifests with subtitles, swap, database) against a bare
 * `ffmpeg -vf fps=1:round=up` of the same file, measured in the same run, interleaved.
 *
 * The video is a synthetic 720p30 H.264 + AAC clip of BENCH_MINUTES (default 10) minutes,
 * made once into a temp dir (a 30 s encode looped with stream copy, so it is quick to make but
 * decodes like a real encode). BENCH_RUNS (default 2) pairs; the best of each side is compared,
 * which filters out noise from other work on the machine. Target: ratio <= 1.15.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTempApp } from '../test/helpers/temp-app.js';

const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const ADMIN_PASSWORD = 'bench-admin-password';
const CACHE = path.join(os.tmpdir(), 'kvq-bench-frames');
/** the baseline: the same filter and JPEG quality as the service, nothing else */
const BARE_ARGS = (input: string, out: string) => ['-i', input, '-vf', 'fps=1:round=up', '-q:v', '3', path.join(out, 'frame_%05d.jpg')];

function ffmpeg(args: string[]): void {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
}

function makeVideo(): string {
  fs.mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, `synthetic-${MINUTES}min-720p30.mp4`);
  if (fs.existsSync(file)) return file;
  const part = path.join(CACHE, 'part-30s.mp4');
  console.log(`making a ${MINUTES}-minute 720p H.264 video in ${CACHE} (once) …`);
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=30:d=30', '-f', 'lavfi', '-i', 'sine=f=440:d=30', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', part]);
  ffmpeg(['-stream_loop', String(MINUTES * 2 - 1), '-i', part, '-c', 'copy', '-movflags', '+faststart', `${file}.tmp.mp4`]);
  fs.renameSync(`${file}.tmp.mp4`, file);
  fs.rmSync(part);
  return file;
}

async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function main(): Promise<void> {
  const video = makeVideo();
  const duration = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', video]).toString());
  const app = await startTempApp({ ADMIN_PASSWORD, LOG_LEVEL: 'warn' });
  const { db, dataDir } = app;
  const base = await app.listen();

  try {
    const login = await fetch(`${base}/api/admin/verify-access`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: ADMIN_PASSWORD }) });
    if (!login.ok) throw new Error(`admin login failed: ${login.status}`);
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

    const dir = path.join(dataDir, 'videos', 'bench');
    fs.mkdirSync(dir, { recursive: true });
    try {
      fs.linkSync(video, path.join(dir, 'video.mp4'));
    } catch {
      fs.copyFileSync(video, path.join(dir, 'video.mp4'));
    }
    await db.run(`INSERT INTO videos (id, title, duration_seconds, video_file, state) VALUES ('bench', 'Bench', ?, 'video.mp4', 'downloaded')`, [duration]);

    const bare: number[] = [];
    const api: number[] = [];
    let count = 0;
    for (let i = 0; i < RUNS; i++) {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-bench-bare-'));
      bare.push(await timed(() => ffmpeg(BARE_ARGS(video, out))));
      const bareCount = fs.readdirSync(out).length;
      fs.rmSync(out, { recursive: true, force: true });
      api.push(
        await timed(async () => {
          const res = await fetch(`${base}/api/frames/bench`, { method: 'POST', headers: { cookie } });
          const body = (await res.json()) as { count?: number; message?: string };
          if (!res.ok) throw new Error(`POST /api/frames failed: ${res.status} ${body.message}`);
          count = body.count ?? 0;
        }),
      );
      console.log(`run ${i + 1}/${RUNS}: bare ffmpeg ${bare[i]!.toFixed(2)} s (${bareCount} frames), POST /api/frames ${api[i]!.toFixed(2)} s (${count} frames)`);
    }

    const bestBare = Math.min(...bare);
    const bestApi = Math.min(...api);
    const ratio = bestApi / bestBare;
    console.log('');
    console.log(`video: ${(duration / 60).toFixed(1)} min 720p30 H.264, ${os.cpus().length} cores`);
    console.log(`baseline: ffmpeg ${BARE_ARGS('<video>', '<dir>').join(' ')}`);
    console.log(`bare ffmpeg (best of ${RUNS}):      ${bestBare.toFixed(2)} s  → ${(duration / bestBare).toFixed(1)} video-s/s`);
    console.log(`POST /api/frames (best of ${RUNS}): ${bestApi.toFixed(2)} s  → ${(duration / bestApi).toFixed(1)} video-s/s (${(count / bestApi).toFixed(1)} frames/s)`);
    console.log(`ratio: ${ratio.toFixed(3)} (target <= 1.15) ${ratio <= 1.15 ? 'OK' : 'ABOVE TARGET'}`);
  } finally {
    await app.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
