import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';

/**
 * A small video site on 127.0.0.1 for the staff browser test: an HTML page with a <video> and an
 * English <track>, so yt-dlp's generic extractor downloads the MP4 and its subtitles. The clip is
 * made here with ffmpeg: 20 s, 320x240 H.264 + AAC, with a caption every few seconds.
 */
export interface FixtureSite {
  pageUrl: string;
  dir: string;
  close(): Promise<void>;
}

export const FIXTURE_CUES = [
  [0, 4, 'A little red fox wakes up in the forest.'],
  [4, 8, 'The fox is hungry and looks for berries.'],
  [8, 12, 'She finds a big blue berry bush by the river.'],
  [12, 16, 'A bird sings and the fox feels happy.'],
  [16, 20, 'The fox carries the berries home to her family.'],
] as const;

export async function startFixtureSite(name = 'foxclip'): Promise<FixtureSite> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-staff-site-'));
  const mp4 = path.join(dir, `${name}.mp4`);
  execFileSync('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=15:duration=20',
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=20',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '64k', '-shortest', '-movflags', '+faststart', mp4,
  ]);
  const vtt = ['WEBVTT', '', ...FIXTURE_CUES.flatMap(([s, e, t], i) => [`${i + 1}`, `${stamp(s)} --> ${stamp(e)}`, t, ''])].join('\n');
  fs.writeFileSync(path.join(dir, `${name}.en.vtt`), vtt);
  fs.writeFileSync(
    path.join(dir, `${name}.html`),
    `<!doctype html><html><head><title>Fox and the berries</title></head><body>
<video controls width="320" height="240"><source src="/${name}.mp4" type="video/mp4">
<track kind="subtitles" srclang="en" label="English" src="/${name}.en.vtt" default></video></body></html>`,
  );
  const types: Record<string, string> = { '.mp4': 'video/mp4', '.vtt': 'text/vtt', '.html': 'text/html; charset=utf-8' };
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.basename(new URL(req.url ?? '/', 'http://x').pathname));
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    const size = fs.statSync(file).size;
    const type = types[path.extname(file)] ?? 'application/octet-stream';
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (range) {
      const start = range[1] ? Number(range[1]) : 0;
      const end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      res.writeHead(206, { 'Content-Type': type, 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Accept-Ranges': 'bytes' });
      fs.createReadStream(file, { start, end }).pipe(res);
      return;
    }
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': size, 'Accept-Ranges': 'bytes' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    pageUrl: `http://127.0.0.1:${port}/${name}.html`,
    dir,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function stamp(s: number): string {
  return `00:00:${String(s).padStart(2, '0')}.000`;
}
