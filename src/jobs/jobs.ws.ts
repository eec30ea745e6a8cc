import { WebSocketServer } from 'ws';
import type { AppContext } from '../context.js';
import { closeSockets, rejectUpgrade, sameOrigin } from '../http/upgrade.js';
import { toJobJson } from './jobs.schema.js';

export const JOBS_WS_PATH = /^\/ws\/jobs$/;

/**
 * /ws/jobs: job progress pushed to the admin pages. Admin only, decided at the upgrade (401
 * anonymous, 403 other roles or a foreign Origin). The server sends `{"type":"snapshot","jobs":[…]}`
 * once (the 20 newest jobs), then `{"type":"job","job":{…}}` on every change; clients send nothing.
 */
export function registerJobSocket(ctx: AppContext): void {
  const log = ctx.logger.child({ module: 'jobs-ws' });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 });

  ctx.upgrades.register(JOBS_WS_PATH, (req, socket, head, auth) => {
    if (auth.role === 'anonymous') return rejectUpgrade(socket, 401, 'Unauthorized');
    if (auth.role !== 'admin') return rejectUpgrade(socket, 403, 'Forbidden');
    if (!sameOrigin(req)) return rejectUpgrade(socket, 403, 'Forbidden');
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', (err) => log.debug({ err: err.message }, 'socket error'));
      // nothing is expected from the client; anything it sends is ignored
      ws.on('message', () => undefined);
      void ctx.jobs.list({ limit: 20 }).then((jobs) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'snapshot', jobs: jobs.map(toJobJson) }));
      });
    });
  });

  const unsubscribe = ctx.jobs.onProgress((job) => {
    if (wss.clients.size === 0) return;
    const text = JSON.stringify({ type: 'job', job: toJobJson(job) });
    for (const client of wss.clients) if (client.readyState === client.OPEN) client.send(text);
  });

  ctx.onClose(() => {
    unsubscribe();
    return closeSockets(wss);
  });
}
