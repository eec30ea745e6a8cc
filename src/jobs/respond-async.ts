import type { Request, Response } from 'express';
import { CANCEL_MESSAGES, type Job } from './jobs.types.js';

/**
 * `Prefer: respond-async` (RFC 7240): the client wants 202 and a job id at once instead of a
 * request held open for the whole job. Tokens are comma-separated and case-insensitive.
 */
export function prefersAsync(req: Request): boolean {
  const header = req.headers.prefer;
  if (!header) return false;
  return (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((t) => t.split(';')[0]!.trim().toLowerCase())
    .includes('respond-async');
}

/** 202 with `{success, job_id, message}`, where to follow the job, and the preference honoured. */
export function sendAccepted(res: Response, job: Job, message: string): void {
  res.status(202).set('Preference-Applied', 'respond-async').set('Location', `/api/admin/jobs/${job.id}`).json({ success: true, job_id: job.id, message });
}

/** HTTP status for a cancelled job: 503 when the server shut down under it (try again later), else 409. */
export function cancelledStatus(job: Job): number {
  return job.error === CANCEL_MESSAGES.shutdown ? 503 : 409;
}
