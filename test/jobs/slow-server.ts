import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A media host on 127.0.0.1 that sends files slowly (`chunkBytes` every `intervalMs`), with the
 * real Content-Length, so yt-dlp knows the total and reports real progress while a test cancels
 * it or shuts the server down. Serves `/<name>` for each file given.
 */
export interface SlowServer {
  url: string;
  close(): Promise<void>;
}

export async function startSlowServer(files: Record<string, string>, o: { chunkBytes: number; intervalMs: number }): Promise<SlowServer> {
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
    const file = files[name];
    if (!file) return void res.writeHead(404).end('not found');
    const data = fs.readFileSync(file);
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range && range[2] ? Math.min(Number(range[2]), data.length - 1) : data.length - 1;
    const headers = { 'Content-Type': 'video/mp4', 'Accept-Ranges': 'bytes', 'Content-Length': end - start + 1 };
    res.writeHead(range ? 206 : 200, range ? { ...headers, 'Content-Range': `bytes ${start}-${end}/${data.length}` } : headers);
    if (req.method === 'HEAD') return void res.end();
    let at = start;
    const send = () => {
      const next = Math.min(end + 1, at + o.chunkBytes);
      res.write(data.subarray(at, next));
      at = next;
      if (at > end) {
        clearInterval(timer);
        timers.delete(timer);
        res.end();
      }
    };
    const timer = setInterval(send, o.intervalMs);
    timers.add(timer);
    res.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
    send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Live processes whose command line mentions `needle` (e.g. a test's DATA_DIR), from /proc. */
export function processesMentioning(needle: string): { pid: number; pgid: number; cmd: string }[] {
  const out: { pid: number; pgid: number; cmd: string }[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ');
      if (!cmd.includes(needle)) continue;
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      out.push({ pid: Number(name), pgid: Number(fields[2]), cmd });
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** Polls `probe` until it returns a value (the test's own time-out bounds the wait). */
export async function until<T>(probe: () => Promise<T | undefined> | T | undefined, everyMs = 100): Promise<T> {
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
