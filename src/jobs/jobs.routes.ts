import type { AppContext } from '../context.js';
import { conflict, notFound } from '../http/errors.js';
import { FINISHED_STATES } from './jobs.types.js';
import { jobListQuery, jobListResponse, jobParams, jobResponse, toJobJson } from './jobs.schema.js';

const tags = ['Admin'];

/**
 * The admin's view of background jobs: the list, one job, and cancel. Cancel is a POST on a
 * sub-resource rather than DELETE: the job record stays (with state 'cancelled') for the history.
 */
export function registerJobRoutes(ctx: AppContext): void {
  const { api, jobs } = ctx;

  api.route(
    {
      method: 'get',
      path: '/api/admin/jobs',
      summary: 'Background jobs (downloads, frame extraction), newest first, with state and progress',
      tags,
      access: ['admin'],
      query: jobListQuery,
      response: jobListResponse,
    },
    async ({ query }) => {
      const list = await jobs.list({ state: query.state, kind: query.kind, limit: query.limit ?? 50 });
      return { success: true, count: list.length, jobs: list.map(toJobJson) };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/admin/jobs/{job_id}',
      summary: "One job's state, progress (0..1), message and, once finished, its result",
      tags,
      access: ['admin'],
      params: jobParams,
      response: jobResponse,
      errors: { 404: 'job_not_found: no job with this id' },
    },
    async ({ params }) => {
      const job = await jobs.get(params.job_id);
      if (!job) throw notFound(`Job ${params.job_id} was not found.`, 'job_not_found');
      return { success: true, job: toJobJson(job) };
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/admin/jobs/{job_id}/cancel',
      summary: 'Cancel a queued or running job (its processes are stopped and its partial files removed)',
      tags,
      access: ['admin'],
      params: jobParams,
      response: jobResponse,
      errors: { 404: 'job_not_found: no job with this id', 409: 'job_finished: the job has already finished' },
    },
    async ({ params }) => {
      const before = await jobs.get(params.job_id);
      if (!before) throw notFound(`Job ${params.job_id} was not found.`, 'job_not_found');
      if (FINISHED_STATES.includes(before.state)) throw conflict(`This job has already finished (${before.state}).`, 'job_finished');
      const job = (await jobs.cancel(params.job_id, 'admin'))!;
      return { success: true, job: toJobJson(job) };
    },
  );
}
