import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import type { WebSocketServer } from 'ws';
import { currentAuth, type Auth } from './session.js';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, auth: Auth, match: RegExpMatchArray) => void;

/**
 * WebSocket upgrades, dispatched by path. The session cookie is parsed with the same
 * session middleware as HTTP requests, so handlers get the same Auth; a path no
 * feature claims is answered 404 and closed.
 */
export class UpgradeRegistry {
  private readonly handlers: { pattern: RegExp; handler: UpgradeHandler }[] = [];

  constructor(private readonly sessionParser: RequestHandler) {}

  register(pattern: RegExp, handler: UpgradeHandler): void {
    this.handlers.push({ pattern, handler });
  }

  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const entry = this.handlers.find((h) => h.pattern.test(pathname));
    if (!entry) return rejectUpgrade(socket, 404, 'Not Found');
    const match = pathname.match(entry.pattern)!;
    const fakeRes = { getHeader() {}, setHeader() {}, on() {}, end() {} } as unknown as Response;
    this.sessionParser(req as Request, fakeRes, () => {
      entry.handler(req, socket, head, currentAuth(req as Request), match);
    });
  }
}

export function rejectUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.write(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`);
  socket.destroy();
}

/** close code sent to every WebSocket client when the server shuts down (RFC 6455: "going away") */
export const WS_GOING_AWAY = 1001;

/**
 * Shutdown of a WebSocket server: every client is told why (1001, "server shutting down"); one
 * that does not finish the closing handshake within a second is dropped. Resolves when all are gone.
 */
export async function closeSockets(wss: WebSocketServer): Promise<void> {
  for (const client of wss.clients) client.close(WS_GOING_AWAY, 'server shutting down');
  const drop = setTimeout(() => {
    for (const client of wss.clients) client.terminate();
  }, 1000);
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  clearTimeout(drop);
}

/**
 * Browsers always send Origin on WebSocket handshakes; a page from another site must not drive
 * an admin's session (cross-site WebSocket hijacking). Non-browser clients send none.
 */
export function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  const forwarded = req.headers['x-forwarded-host'];
  const hosts = [req.headers.host, ...(typeof forwarded === 'string' ? forwarded.split(',').map((h) => h.trim()) : [])];
  try {
    return hosts.includes(new URL(origin).host);
  } catch {
    return false;
  }
}
