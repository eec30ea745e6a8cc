import { z } from 'zod';
import { JOB_KINDS, JOB_STATES, type Job } from './jobs.types.js';

/** zod schemas of the job routes and the job's JSON shape (snake_case, like the rest of the API). */
export const JOB_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const jobParams = z.object({ job_id: z.string().regex(JOB_ID_RE, 'is not a valid job id') });

export const jobListQuery = z.object({
  state: z.enum(JOB_STATES, { error: `must be one of ${JOB_STATES.join(', ')}` }).optional(),
  kind: z.enum(JOB_KINDS, { error: `must be one of ${JOB_KINDS.join(', ')}` }).optional(),
  limit: z.coerce.number({ error: 'must be a number' }).int().min(1, 'must be at least 1').max(200, 'must be at most 200').optional(),
});

export const jobJson = z.object({
  job_id: z.string(),
  kind: z.enum(JOB_KINDS),
  video_id: z.string().nullable(),
  state: z.enum(JOB_STATES),
  progress: z.number().min(0).max(1),
  message: z.string(),
  /** what the job was started with, e.g. {"url": …} for a download */
  input: z.unknown(),
  result: z.unknown().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type JobJson = z.infer<typeof jobJson>;

export const jobResponse = z.object({ success: z.boolean(), job: jobJson });
export const jobListResponse = z.object({ success: z.boolean(), count: z.number().int(), jobs: z.array(jobJson) });
/** the answer of POST /api/download and POST /api/frames/{video_id} with `Prefer: respond-async` */
export const jobAccepted = z.object({ success: z.boolean(), job_id: z.string(), message: z.string() });

/** The job as the API shows it (admins only). */
export function toJobJson(j: Job): JobJson {
  return {
    job_id: j.id,
    kind: j.kind,
    video_id: j.videoId,
    state: j.state,
    progress: j.progress,
    message: j.message,
    input: j.input,
    result: j.result,
    error: j.error,
    created_at: j.createdAt,
    started_at: j.startedAt,
    finished_at: j.finishedAt,
  };
}
