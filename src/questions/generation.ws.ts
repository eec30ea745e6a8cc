import { WebSocketServer, type WebSocket } from 'ws';
import type { AppContext } from '../context.js';
import type { Providers } from '../ai/providers.js';
import { closeSockets, rejectUpgrade, sameOrigin } from '../http/upgrade.js';
import { VIDEO_ID_RE } from '../http/ids.js';
import { generationRequestSchema, type GenerationEvent } from './generation.schema.js';
import { RunRefused, runGeneration } from './generation.service.js';
import { holdLease } from '../coordination/shared-limits.js';

export const GENERATION_WS_PATH = /^\/ws\/questions\/([^/]+)$/;
/** a client that connects and never sends its request is closed after this long */
const FIRST_MESSAGE_TIMEOUT_MS = 60_000;
/** the generation lease's lifetime; renewed every third of it while the run goes on */
const LEASE_MS = 60_000;

/**
 * /ws/questions/{video_id}: the admin's live generation run. Access is decided at the upgrade
 * (401 anonymous, 403 any other role or a foreign Origin) before any work. The first valid
 * message starts the run; closing the socket cancels the provider calls in flight.
 */
export function registerGenerationSocket(ctx: AppContext, providers: Providers): void {
  const log = ctx.logger.child({ module: 'generation-ws' });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 });
  // one run per video at a time: a second socket for the same video is told so (this instance's
  // runs, to cancel them on close; the lease below covers the other instances)
  const running = new Map<string, AbortController>();

  ctx.upgrades.register(GENERATION_WS_PATH, (req, socket, head, auth, match) => {
    if (auth.role === 'anonymous') return rejectUpgrade(socket, 401, 'Unauthorized');
    if (auth.role !== 'admin') return rejectUpgrade(socket, 403, 'Forbidden');
    if (!sameOrigin(req)) return rejectUpgrade(socket, 403, 'Forbidden');
    let videoId: string;
    try {
      videoId = decodeURIComponent(match[1]!);
    } catch {
      return rejectUpgrade(socket, 400, 'Bad Request');
    }
    if (!VIDEO_ID_RE.test(videoId)) return rejectUpgrade(socket, 400, 'Bad Request');
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, videoId));
  });

  function onConnection(ws: WebSocket, videoId: string): void {
    const controller = new AbortController();
    let started = false;
    const send = (e: GenerationEvent) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(e));
    };
    const idle = setTimeout(() => {
      send({ type: 'error', code: 'no_request', message: 'No generation request arrived in time.' });
      ws.close(1000);
    }, FIRST_MESSAGE_TIMEOUT_MS);
    idle.unref();

    ws.on('close', () => {
      clearTimeout(idle);
      controller.abort();
    });
    ws.on('error', (err) => log.debug({ err: err.message }, 'socket error'));
    ws.on('message', (data, isBinary) => {
      if (started) {
        send({ type: 'error', code: 'run_in_progress', message: 'A run is already going on this connection; close it to cancel.' });
        return;
      }
      let json: unknown;
      try {
        json = isBinary ? undefined : JSON.parse(data.toString());
      } catch {
        json = undefined;
      }
      const parsed = generationRequestSchema.safeParse(json);
      if (!parsed.success) {
        const detail = parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'message', message: i.message }));
        send({
          type: 'error',
          code: 'bad_payload',
          message: `Send {"start_seconds": int, "interval_seconds": int, "full_duration": bool}. ${detail.map((d) => `${d.field}: ${d.message}`).join('; ')}`,
          detail,
        });
        return;
      }
      if (running.has(videoId)) {
        send({ type: 'error', code: 'run_in_progress', message: 'Questions for this video are already being generated.' });
        ws.close(1000);
        return;
      }
      started = true;
      clearTimeout(idle);
      running.set(videoId, controller);
      const done = () => {
        if (running.get(videoId) === controller) running.delete(videoId);
        if (ws.readyState === ws.OPEN) ws.close(1000, 'done');
      };
      // One run per video across every instance: a lease in the shared database, renewed while
      // the run goes on and freed by itself if this instance dies (issue #18).
      holdLease(ctx.db, `generate:${videoId}`, LEASE_MS)
        .then(async (lease) => {
          if (!lease) {
            send({ type: 'error', code: 'run_in_progress', message: 'Questions for this video are already being generated.' });
            return;
          }
          try {
            await runGeneration({ ...ctx, providers }, videoId, parsed.data, send, controller.signal);
          } finally {
            await lease.release().catch((err: unknown) => log.warn({ err }, 'could not release the generation lease; it expires by itself'));
          }
        })
        .catch((err: unknown) => {
          if (err instanceof RunRefused) send({ type: 'error', code: err.code, message: err.message });
          else {
            log.error({ err }, 'generation run failed');
            send({ type: 'error', code: 'internal_error', message: 'The run stopped because of an internal error.' });
          }
        })
        .finally(done);
    });
  }

  ctx.onClose(async () => {
    for (const c of running.values()) c.abort();
    await closeSockets(wss);
  });
}
