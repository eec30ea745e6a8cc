import WebSocket from 'ws';
import { TEST_ADMIN_PASSWORD } from '../helpers/app.js';

/** Logs in over HTTP and returns the session cookie (for WebSocket handshakes). */
export async function cookieFor(baseUrl: string, role: 'admin' | 'expert', code?: string): Promise<string> {
  const res = await fetch(`${baseUrl}${role === 'admin' ? '/api/admin/verify-access' : '/api/expert/login'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(role === 'admin' ? { password: TEST_ADMIN_PASSWORD } : { access_code: code }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

export interface Run {
  ws: WebSocket;
  events: Record<string, unknown>[];
  /** resolves with all events when the server closes the socket */
  closed: Promise<Record<string, unknown>[]>;
  /** resolves when an event matching the predicate has arrived */
  waitFor(pred: (e: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

/** Opens /ws/questions/{id} with a cookie and optionally sends the first message. */
export async function openRun(baseUrl: string, videoId: string, cookie: string | null, message?: unknown): Promise<Run> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws/questions/${videoId}`, { headers: cookie ? { cookie } : {} });
  const events: Record<string, unknown>[] = [];
  const listeners: (() => void)[] = [];
  ws.on('message', (data) => {
    events.push(JSON.parse(data.toString()));
    listeners.splice(0).forEach((l) => l());
  });
  const closed = new Promise<Record<string, unknown>[]>((resolve) => ws.on('close', () => resolve(events)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode })));
    ws.once('error', reject);
  });
  if (message !== undefined) ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  const waitFor = async (pred: (e: Record<string, unknown>) => boolean) => {
    for (;;) {
      const hit = events.find(pred);
      if (hit) return hit;
      if (ws.readyState === WebSocket.CLOSED) throw new Error(`socket closed; events: ${JSON.stringify(events)}`);
      await new Promise<void>((r) => {
        listeners.push(r);
        ws.once('close', r);
      });
    }
  };
  return { ws, events, closed, waitFor };
}

/** The status code of a refused handshake. */
export async function refusedStatus(baseUrl: string, videoId: string, cookie: string | null): Promise<number> {
  try {
    const run = await openRun(baseUrl, videoId, cookie);
    run.ws.close();
    return 101;
  } catch (err) {
    return (err as { status?: number }).status ?? -1;
  }
}
