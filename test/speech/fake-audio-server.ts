import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI audio API on 127.0.0.1 (`/v1/audio/speech`, `/v1/audio/transcriptions`) so the
 * real `openai` SDK runs in tests. It records each request and answers per `mode`.
 */
export interface AudioRequest {
  path: string;
  auth: string | undefined;
  /** JSON body of a speech request */
  json?: Record<string, unknown>;
  /** raw multipart body of a transcription request */
  raw?: Buffer;
}

export class FakeAudioServer {
  url = '';
  mode: 'ok' | 'fail' = 'ok';
  /** what a transcription answers */
  transcript = 'it was red';
  /** the bytes a speech request answers */
  readonly speechBytes = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(64, 7)]);
  readonly requests: AudioRequest[] = [];
  private readonly server = http.createServer((req, res) => void this.handle(req, res));

  static async start(): Promise<FakeAudioServer> {
    const f = new FakeAudioServer();
    await new Promise<void>((resolve) => f.server.listen(0, '127.0.0.1', () => resolve()));
    f.url = `http://127.0.0.1:${(f.server.address() as AddressInfo).port}/v1`;
    return f;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = (req.url ?? '').split('?')[0]!;
    const entry: AudioRequest = { path, auth: req.headers.authorization };
    if (path.endsWith('/audio/speech')) entry.json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    else entry.raw = body;
    this.requests.push(entry);
    if (this.mode === 'fail') {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'fake upstream failure', type: 'server_error' } }));
      return;
    }
    if (path.endsWith('/audio/speech')) {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.end(this.speechBytes);
    } else if (path.endsWith('/audio/transcriptions')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: this.transcript }));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'no such route' } }));
    }
  }
}
