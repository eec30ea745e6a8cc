import { registerPipelineJobs, type JobHandlerContext } from '../videos/pipeline.jobs.js';

export type { JobHandlerContext };

/**
 * Every feature's job handlers, registered on the queue by the process that works jobs: createApp
 * when JOB_CONCURRENCY > 0 (the embedded setup), and `npm run worker` (src/worker.ts), which
 * builds no Express app. A web instance with JOB_CONCURRENCY=0 registers none: it only enqueues.
 */
export const JOB_HANDLERS: ((ctx: JobHandlerContext) => void)[] = [registerPipelineJobs];

export function registerJobHandlers(ctx: JobHandlerContext): void {
  for (const register of JOB_HANDLERS) register(ctx);
}
