import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import { currentAuth, type Auth } from './session.js';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, auth: Auth, match: RegExpMatchArray) => void;

/**
 * WebSocket upgrades, dispatched by path. The session cookie is parsed with the same
 * express-session middleware as HTTP requests, so handlers get the same Auth; a path no
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
