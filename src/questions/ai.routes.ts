import { z } from 'zod';
import type { Response } from 'express';
import type { AppContext } from '../context.js';
import type { Providers } from '../ai/providers.js';
import { PERSONAS } from '../ai/companions.js';
import { assertVideoAccess } from '../videos/access.js';
import { writeQuestionExport } from './export.js';
import { mediaStore } from '../storage/index.js';
import { previewVariants, regenerateQuestion, updateVariants } from './ai-actions.service.js';
import { reviewState } from './review.service.js';
import { actor } from './review.routes.js';
import { regenerateBody, submitBody, variantPreviewBody, variantsBody, videoParams } from './review.schema.js';
import { normalizeSubmitted, storeSubmitted } from './submit.service.js';

const tags = ['Questions'];
const staff = ['admin', 'expert'] as const;

/** Aborted when the client goes away before the answer is sent (cancels provider calls). */
function requestSignal(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** Routes that store AI output or call a provider: submit, regenerate, companion variants. */
export function registerAiRoutes(ctx: AppContext, providers: Providers): void {
  const { api, db, config } = ctx;
  const deps = { ...ctx, providers };

  api.route(
    {
      method: 'post', path: '/api/submit-questions', tags, access: ['admin'], body: submitBody,
      summary: 'Store generated questions (segment results or single questions) and write the JSON export',
      response: z.object({ success: z.boolean(), message: z.string(), file_url: z.string().optional(), file_path: z.string().optional() }),
      errors: { 400: 'invalid payload', 404: 'video not found' },
    },
    async ({ body, auth }) => {
      await assertVideoAccess(db, auth, body.video_id);
      const counts = await storeSubmitted(db, body.video_id, normalizeSubmitted(body.questions));
      const file = await writeQuestionExport(db, mediaStore(config), body.video_id);
      return { success: true, message: `Stored ${counts.questions} question(s) in ${counts.segments} segment(s).`, ...counts, ...file };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/expert/video/{video_id}/regenerate-question', tags, access: staff, params: videoParams, body: regenerateBody,
      summary: 'Ask the AI for a new question (replacing question_id, or added to a segment for a type); save:false only returns it',
      errors: { 400: 'invalid payload or provider not configured', 403: 'not your video', 409: 'no frames', 422: 'nothing to ask', 502: 'provider failed' },
    },
    async ({ params, body, auth }, _req, res) => {
      await assertVideoAccess(db, auth, params.video_id);
      const r = await regenerateQuestion(deps, params.video_id, body, actor(auth), requestSignal(res));
      return { success: true, message: r.saved ? 'Question regenerated and saved.' : 'Question regenerated.', ...r };
    },
  );

  api.route(
    {
      method: 'get', path: '/api/expert/video/{video_id}/persona-variants', tags, access: staff, params: videoParams,
      summary: 'Companion variants of every question with the picked variant per segment and companion',
      errors: { 403: 'not your video', 404: 'video not found' },
    },
    async ({ params, auth }) => {
      await assertVideoAccess(db, auth, params.video_id);
      return { success: true, video_id: params.video_id, companions: PERSONAS, segments: await reviewState(db, params.video_id) };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/expert/video/{video_id}/persona-variants', tags, access: staff, params: videoParams, body: variantsBody,
      summary: 'Generate companion variants (default: top question of each segment), add own wordings, pick winners',
      errors: { 400: 'invalid payload', 403: 'not your video', 502: 'provider failed for every question' },
    },
    async ({ params, body, auth }, _req, res) => {
      await assertVideoAccess(db, auth, params.video_id);
      const r = await updateVariants(deps, params.video_id, body, actor(auth), requestSignal(res));
      return {
        success: true,
        message: `${r.created.length} variant(s) written` + (r.errors.length ? `, ${r.errors.length} question(s) failed.` : '.'),
        video_id: params.video_id,
        ...r,
        segments: await reviewState(db, params.video_id),
      };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/expert/questions/persona-variants', tags, access: staff, body: variantPreviewBody,
      summary: 'Reword a list of questions for the companions (nothing stored)',
      errors: { 400: 'invalid payload', 502: 'provider failed' },
    },
    async ({ body }, _req, res) => ({ success: true, companions: PERSONAS, ...(await previewVariants(deps, body, requestSignal(res))) }),
  );
}
