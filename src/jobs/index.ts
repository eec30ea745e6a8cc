import type { AppContext } from '../context.js';
import { registerJobRoutes } from './jobs.routes.js';
import { registerJobSocket } from './jobs.ws.js';

/** Jobs: the admin's routes (list, one job, cancel) and the /ws/jobs progress socket. The queue itself is built by createApp. */
export function registerJobs(ctx: AppContext): void {
  registerJobRoutes(ctx);
  registerJobSocket(ctx);
}
