import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jpegSize } from '../../src/questions/segment-input.js';

/**
 * A fake AI provider on 127.0.0.1 that answers the request shapes of OpenAI chat completions,
 * Anthropic messages and Gemini generateContent, so the real SDKs can be exercised offline.
 * Each test drives it with `script` (one behaviour per request, in order; then `fallback`),
 * a per-call `delayMs`, and reads back what was asked (`requests`, concurrency, aborts).
 */
export type Api = 'openai' | 'anthropic' | 'gemini';
export type Mode = 'ok' | 'invalid_json' | 'wrong_shape' | 'rate_limit' | 'refusal' | 'server_error' | 'slow' | 'hang';

export interface FakeRequest {
  api: Api;
  path: string;
  model: string;
  /** system + user text */
  text: string;
  images: number;
  /** width x height of each attached JPEG */
  imageSizes: { width: number; height: number }[];
  /** a header the SDK sent for its key */
  auth: string | undefined;
  /** true when the client went away before the reply */
  aborted: boolean;
  mode: Mode;
}

export class FakeProvider {
  url = '';
  readonly requests: FakeRequest[] = [];
  /** behaviours for the next requests, consumed in order */
  script: Mode[] = [];
  fallback: Mode = 'ok';
  /** latency of every reply */
  delayMs = 0;
  /** how long 'slow' waits */
  slowMs = 3000;
  inFlight = 0;
  maxInFlight = 0;
  /** a test's own reply text for prompts it recognises (undefined: the built-in replies) */
  textFor: ((prompt: string) => string | undefined) | undefined;
  private readonly server: http.Server;
  private readonly waiters: (() => void)[] = [];

  private constructor() {
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  static async start(): Promise<FakeProvider> {
    const f = new FakeProvider();
    await new Promise<void>((resolve) => f.server.listen(0, '127.0.0.1', () => resolve()));
    f.url = `http://127.0.0.1:${(f.server.address() as AddressInfo).port}`;
    return f;
  }

  /** Base-URL settings for the three SDKs. */
  env(): Record<string, string> {
    return {
      OPENAI_BASE_URL: `${this.url}/v1`,
      OPENAI_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: this.url,
      ANTHROPIC_API_KEY: 'sk-ant-test',
      GEMINI_BASE_URL: this.url,
      GEMINI_API_KEY: 'gm-test',
    };
  }

  reset(): void {
    this.requests.length = 0;
    this.script = [];
    this.fallback = 'ok';
    this.textFor = undefined;
    this.delayMs = 0;
    this.inFlight = 0;
    this.maxInFlight = 0;
  }

  /** Resolves once `n` requests have arrived in total. */
  async waitForRequests(n: number): Promise<void> {
    while (this.requests.length < n) await new Promise<void>((r) => this.waiters.push(r));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
    } catch {
      // keep {}
    }
    const url = req.url ?? '';
    const api: Api | null = url.includes('/chat/completions') ? 'openai' : url.includes('/messages') ? 'anthropic' : url.includes(':generateContent') ? 'gemini' : null;
    if (!api || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const { text, images, imageSizes } = extract(api, body);
    const mode = this.script.shift() ?? this.fallback;
    const record: FakeRequest = {
      api,
      path: url,
      model: api === 'gemini' ? decodeURIComponent(/models\/([^:]+):/.exec(url)?.[1] ?? '') : String(body.model ?? ''),
      text,
      images,
      imageSizes,
      auth: (req.headers['authorization'] ?? req.headers['x-api-key'] ?? req.headers['x-goog-api-key']) as string | undefined,
      aborted: false,
      mode,
    };
    this.requests.push(record);
    this.waiters.splice(0).forEach((w) => w());
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.on('close', () => {
      this.inFlight--;
      if (!res.writableFinished) record.aborted = true;
    });

    const wait = mode === 'slow' ? this.slowMs : mode === 'hang' ? 3_600_000 : this.delayMs;
    if (wait > 0) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, wait);
        res.on('close', () => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    if (res.destroyed || res.writableEnded) return;
    const [status, payload, headers] = reply(api, mode, record, this.textFor?.(record.text));
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
  }
}

function extract(api: Api, body: Record<string, unknown>): { text: string; images: number; imageSizes: { width: number; height: number }[] } {
  const texts: string[] = [];
  const imageSizes: { width: number; height: number }[] = [];
  let images = 0;
  const visit = (part: Record<string, unknown>) => {
    if (typeof part.text === 'string') texts.push(part.text);
    const b64 =
      (part.image_url as { url?: string } | undefined)?.url?.replace(/^data:[^,]*,/, '') ??
      (part.source as { data?: string } | undefined)?.data ??
      (part.inlineData as { data?: string } | undefined)?.data;
    if (b64) {
      images++;
      const size = jpegSize(Buffer.from(b64, 'base64'));
      if (size) imageSizes.push(size);
    }
  };
  if (api === 'openai') {
    for (const m of (body.messages as { content: unknown }[]) ?? []) {
      if (typeof m.content === 'string') texts.push(m.content);
      else for (const p of (m.content as Record<string, unknown>[]) ?? []) visit(p);
    }
  } else if (api === 'anthropic') {
    if (typeof body.system === 'string') texts.push(body.system);
    for (const m of (body.messages as { content: unknown }[]) ?? []) {
      if (typeof m.content === 'string') texts.push(m.content);
      else for (const p of (m.content as Record<string, unknown>[]) ?? []) visit(p);
    }
  } else {
    const sys = body.systemInstruction as { parts?: Record<string, unknown>[] } | undefined;
    for (const p of sys?.parts ?? []) visit(p);
    for (const c of (body.contents as { parts: Record<string, unknown>[] }[]) ?? []) for (const p of c.parts ?? []) visit(p);
  }
  return { text: texts.join('\n'), images, imageSizes };
}

const TYPES = ['character', 'setting', 'feeling', 'action', 'causal', 'outcome', 'prediction'];

/** The model's answer text for a prompt, shaped like a good reply to what was asked. */
export function modelText(prompt: string): string {
  const seg = /Segment: (\S+) to (\S+)\./.exec(prompt);
  if (prompt.includes('Write one question for each')) {
    const label = seg ? `${seg[1]} to ${seg[2]}` : 'this part';
    return JSON.stringify({
      questions: TYPES.map((t, i) => ({ question_type: t, question: `Fake ${t} question about ${label}?`, answer: `answer ${t}`, rank: i + 1 })),
    });
  }
  const regen = /Write one new (\w+) question/.exec(prompt);
  if (regen) return JSON.stringify({ question_type: regen[1], question: `A fresh ${regen[1]} question?`, answer: 'fresh answer' });
  const q = /Question \((\w+)\): (.*)/.exec(prompt);
  if (q) {
    const companions = ['bunny', 'pig', 'alligator'].filter((c) => prompt.includes(`- ${c}:`));
    const voice: Record<string, string> = { bunny: 'Hop hop!', pig: 'Oink!', alligator: 'Snap snap!' };
    return JSON.stringify({ variants: Object.fromEntries(companions.map((c) => [c, `${voice[c]} ${q[2]}`])) });
  }
  if (prompt.includes('Expected answer:')) return JSON.stringify({ status: 'almost', reason: 'Close to the expected answer.' });
  return '{}';
}

function reply(api: Api, mode: Mode, r: FakeRequest, custom?: string): [number, unknown, Record<string, string>] {
  if (mode === 'rate_limit') {
    const err =
      api === 'gemini'
        ? { error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED' } }
        : api === 'anthropic'
          ? { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited' } }
          : { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } };
    return [429, err, { 'retry-after': '0' }];
  }
  if (mode === 'server_error') return [500, { error: { message: 'boom' } }, {}];
  const text = mode === 'invalid_json' ? 'Here are your questions: 1. Who?' : mode === 'wrong_shape' ? '{"items": []}' : (custom ?? modelText(r.text));
  const refused = mode === 'refusal';
  if (api === 'openai') {
    return [200, {
      id: 'chatcmpl-fake', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: r.model,
      choices: [{ index: 0, message: { role: 'assistant', content: refused ? null : text, refusal: refused ? "I'm sorry, I can't help with that." : null }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    }, {}];
  }
  if (api === 'anthropic') {
    return [200, {
      id: 'msg_fake', type: 'message', role: 'assistant', model: r.model,
      content: refused ? [] : [{ type: 'text', text }],
      stop_reason: refused ? 'refusal' : 'end_turn', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 10 },
    }, {}];
  }
  return [200, refused
    ? { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'SAFETY', index: 0 }], usageMetadata: { promptTokenCount: 10 } }
    : { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10 }, modelVersion: r.model }, {}];
}
