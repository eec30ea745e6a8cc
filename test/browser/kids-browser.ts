import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Request } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';

export const KIDS_ARTIFACTS = path.resolve('test-artifacts/kids');

/**
 * Chromium as NOTES.md measured it, plus a fake microphone that plays `wav` (restarted from its
 * beginning every time the page opens the microphone; the player opens it once per answer).
 */
export async function launchKidsBrowser(wav: string): Promise<Browser> {
  fs.mkdirSync(KIDS_ARTIFACTS, { recursive: true });
  return launchChromium([
    '--autoplay-policy=no-user-gesture-required',
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-audio-capture=${path.resolve(wav)}`,
  ]);
}

/**
 * A child's spoken answer as the microphone hears it: espeak-ng says `text`, converted to 16 kHz
 * mono 16-bit with 1 s of quiet before (the room) and 3 s after (the child has finished).
 */
export function speakToWav(text: string, dir: string, name = 'answer'): string {
  const raw = path.join(dir, `${name}-raw.wav`);
  const out = path.join(dir, `${name}.wav`);
  execFileSync('espeak-ng', ['-w', raw, text]);
  execFileSync('ffmpeg', [
    '-loglevel', 'error', '-y', '-i', raw,
    '-af', 'adelay=1000:all=1,apad=pad_dur=3',
    '-ar', '16000', '-ac', '1', '-sample_fmt', 's16', out,
  ]);
  return out;
}

/**
 * The test's clock runs faster than a child's: every <audio> the page plays (the companion's
 * speech) at `rate`. The page still waits for each clip's real end, so the order of speaking,
 * listening and reacting is the same, only shorter. (Video speed is set per test, after load.)
 */
export async function fastSpeech(page: Page, rate = 4): Promise<void> {
  await page.addInitScript((r) => {
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      if (this instanceof HTMLAudioElement) {
        this.defaultPlaybackRate = r;
        this.playbackRate = r;
      }
      return play.call(this);
    };
  }, rate);
}

/** Page errors, API calls and numbered screenshots of one browser test. */
export class KidsLog {
  readonly errors: string[] = [];
  readonly api: { method: string; url: string; status?: number; request: Request }[] = [];
  private shot = 0;

  constructor(readonly page: Page, private readonly prefix: string) {
    // screenshots of an earlier run would mix with this run's numbering
    fs.mkdirSync(KIDS_ARTIFACTS, { recursive: true });
    for (const f of fs.readdirSync(KIDS_ARTIFACTS)) if (f.startsWith(`${prefix}-`)) fs.rmSync(path.join(KIDS_ARTIFACTS, f));
    // Playwright cannot read multipart bodies built from a Blob: note the fields of every
    // /api/transcribe upload in the page itself (name -> string value, or the file's type and size).
    void page.addInitScript(() => {
      const w = window as unknown as { __transcribeForms: Record<string, string>[] };
      w.__transcribeForms = [];
      const original = window.fetch.bind(window);
      window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input).includes('/api/transcribe') && init?.body instanceof FormData) {
          const fields: Record<string, string> = {};
          init.body.forEach((v, k) => {
            fields[k] = typeof v === 'string' ? v : `${v.type} ${v.size}`;
          });
          w.__transcribeForms.push(fields);
        }
        return original(input, init);
      };
    });
    page.on('pageerror', (e) => this.errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('Failed to load resource')) this.errors.push(`console: ${m.text()}`);
    });
    // the page's state changes, in order (some, like "replaying", last only a moment)
    void page.addInitScript(() => {
      const w = window as unknown as { __states: string[] };
      w.__states = [];
      new MutationObserver((records) => {
        for (const r of records) {
          const state = (r.target as HTMLElement).dataset.state;
          if (r.attributeName === 'data-state' && state && w.__states.at(-1) !== state) w.__states.push(state);
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
    });
    if (process.env.KIDS_TEST_DEBUG) {
      page.on('console', (m) => console.log(`[${prefix}] console.${m.type()}: ${m.text()}`));
      page.on('response', (r) => console.log(`[${prefix}] ${r.status()} ${r.request().method()} ${r.url()}`));
    }
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) this.api.push({ method: r.method(), url: r.url(), request: r });
    });
    page.on('response', (r) => {
      const entry = this.api.find((a) => a.request === r.request());
      if (entry) entry.status = r.status();
    });
  }

  /** The player's states so far on the current page, in order. */
  states(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __states: string[] }).__states);
  }

  /** The fields of every /api/transcribe upload of the current page. */
  transcribeForms(): Promise<Record<string, string>[]> {
    return this.page.evaluate(() => (window as unknown as { __transcribeForms: Record<string, string>[] }).__transcribeForms);
  }

  calls(method: string, pathname: string | RegExp): { url: string; status?: number; request: Request }[] {
    return this.api.filter((a) => a.method === method && (typeof pathname === 'string' ? new URL(a.url).pathname === pathname : pathname.test(new URL(a.url).pathname)));
  }

  async screenshot(name: string): Promise<string> {
    this.shot += 1;
    const file = path.join(KIDS_ARTIFACTS, `${this.prefix}-${String(this.shot).padStart(2, '0')}-${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }
}

export interface FakeTranscriber {
  url: string;
  /** every upload received: file name, bytes, content type */
  uploads: { filename: string; bytes: number; contentType: string; model: string }[];
  close(): Promise<void>;
}

/**
 * A stand-in for the OpenAI transcription API on 127.0.0.1 (reached through OPENAI_BASE_URL by the
 * real SDK). It refuses uploads that are not real audio (ffprobe must find an audio stream) and
 * answers `say(uploadIndex)` as the transcript.
 */
export async function startFakeTranscriber(dir: string, say: (n: number) => string): Promise<FakeTranscriber> {
  const uploads: FakeTranscriber['uploads'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method !== 'POST' || !req.url?.endsWith('/audio/transcriptions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const parts = parseMultipart(body, String(req.headers['content-type']));
      const file = parts.find((p) => p.name === 'file');
      const model = parts.find((p) => p.name === 'model')?.data.toString() ?? '';
      if (!file || !isAudio(file.data, dir)) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Invalid file format.' } }));
        return;
      }
      uploads.push({ filename: file.filename ?? '', bytes: file.data.length, contentType: file.contentType ?? '', model });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: say(uploads.length - 1) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    uploads,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function isAudio(data: Buffer, dir: string): boolean {
  const file = path.join(dir, `upload-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  fs.writeFileSync(file, data);
  try {
    const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', file]).toString();
    return out.includes('audio');
  } catch {
    return false;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

function parseMultipart(body: Buffer, contentType: string): Part[] {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!m) return [];
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts: Part[] = [];
  let pos = body.indexOf(boundary);
  while (pos >= 0) {
    const next = body.indexOf(boundary, pos + boundary.length);
    if (next < 0) break;
    const chunk = body.subarray(pos + boundary.length + 2, next - 2);
    const headEnd = chunk.indexOf('\r\n\r\n');
    if (headEnd > 0) {
      const head = chunk.subarray(0, headEnd).toString();
      parts.push({
        name: /name="([^"]*)"/.exec(head)?.[1] ?? '',
        filename: /filename="([^"]*)"/.exec(head)?.[1],
        contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1],
        data: chunk.subarray(headEnd + 4),
      });
    }
    pos = next;
  }
  return parts;
}
