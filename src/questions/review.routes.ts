import { z } from 'zod';
import type { Response } from 'express';
import type { AppContext } from '../context.js';
import type { Auth } from '../http/session.js';
import { notFound } from '../http/errors.js';
import { assertVideoAccess } from '../videos/access.js';
import { readQuestionExport, writeQuestionExport } from './export.js';
import { mediaStore } from '../storage/index.js';
import { finalQuestions } from './final.service.js';
import { finalQuestionsResponseSchema } from './questions.schema.js';
import { videoForQuestions } from './review.repository.js';
import { annotationsBody, finalQuery, saveDraftBody, saveFinalBody, updateQuestionsBody, videoParams } from './review.schema.js';
import { listAnnotations, reviewState, saveAnnotations, saveDraft, saveFinal, updateQuestions } from './review.service.js';
import { COMPANIONS, type Companion } from '../config.js';

const tags = ['Questions'];
const staff = ['admin', 'expert'] as const;
const ok = z.looseObject({ success: z.boolean(), message: z.string() });

/** Who made a change, as stored in updated_by / finalized_by / annotation author. */
export const actor = (auth: Auth): string => (auth.role === 'expert' ? auth.expertId : auth.role);

/** The expert's review routes and the child's final questions. */
export function registerReviewRoutes(ctx: AppContext): void {
  const { api, db, config } = ctx;

  const finalBody = async (videoId: string, companion: Companion | null) => {
    // frozen and shared with other requests (served-cache.ts): serialized as it is
    const segments = await finalQuestions(db, videoId, companion);
    return segments.length
      ? { success: true, video_id: videoId, companion, segments }
      : { success: false, video_id: videoId, companion, segments, error: 'This video has no final questions yet.' };
  };

  api.route(
    {
      method: 'get', path: '/api/final-questions/{video_id}', tags, access: ['admin', 'expert', 'child'], params: videoParams, query: finalQuery,
      summary: "The question a child hears per finalized segment, in the companion's wording (default: the child's chosen companion)",
      response: finalQuestionsResponseSchema, errors: { 400: 'unknown companion', 403: 'not your video', 404: 'video not found' },
    },
    async ({ params, query, auth }, req) => {
      await assertVideoAccess(db, auth, params.video_id);
      const fromSession = auth.role === 'child' ? req.session.companion : undefined;
      const sessionCompanion = COMPANIONS.find((c) => c === fromSession) ?? null;
      return finalBody(params.video_id, query.companion ?? sessionCompanion);
    },
  );

  api.route(
    {
      method: 'get', path: '/api/expert/video/{video_id}/final-questions', tags, access: staff, params: videoParams, query: finalQuery,
      summary: 'Final questions of a video as a child would get them (same shape as /api/final-questions)',
      response: finalQuestionsResponseSchema, errors: { 403: 'not your video', 404: 'video not found' },
    },
    async ({ params, query, auth }) => {
      await assertVideoAccess(db, auth, params.video_id);
      return finalBody(params.video_id, query.companion ?? null);
    },
  );

  api.route(
    {
      method: 'get', path: '/api/expert-questions/{video_id}', tags, access: staff, params: videoParams,
      summary: 'Questions of a video for review: AI result, review set, companion variants and picks per segment, and annotations',
      errors: { 403: 'not your video', 404: 'video or questions not found' },
    },
    async ({ params, auth }) => {
      await assertVideoAccess(db, auth, params.video_id);
      const segments = await reviewState(db, params.video_id);
      if (segments.length === 0) throw notFound('This video has no questions yet.', 'questions_not_found');
      const title = (await videoForQuestions(db, params.video_id))?.title ?? '';
      return { success: true, video_id: params.video_id, title, segments, annotations: await listAnnotations(db, params.video_id) };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/expert-questions', tags, access: staff, body: saveDraftBody, response: ok,
      summary: "Save the expert's edits of some segments (ranks, wording, trashed, own questions) without changing finalization",
      errors: { 400: 'invalid payload', 403: 'not your video', 404: 'video not found' },
    },
    async ({ body, auth }) => {
      await assertVideoAccess(db, auth, body.video_id);
      const n = await saveDraft(db, body.video_id, body.segments, actor(auth));
      return { success: true, message: `Saved ${n} segment(s).`, video_id: body.video_id, segments: await reviewState(db, body.video_id) };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/save-final-questions', tags, access: staff, body: saveFinalBody, response: ok,
      summary: 'Finalize segments (optionally with their edited questions): children are served finalized segments only',
      errors: { 400: 'invalid payload or a segment with nothing to serve', 403: 'not your video', 404: 'video or segment not found' },
    },
    async ({ body, auth }) => {
      await assertVideoAccess(db, auth, body.video_id);
      const n = await saveFinal(db, body.video_id, body.segments, actor(auth));
      const file = await writeQuestionExport(db, mediaStore(config), body.video_id);
      const final = await finalQuestions(db, body.video_id, null);
      return { success: true, message: `Saved ${n} segment(s).`, video_id: body.video_id, final, ...file };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/expert-annotations', tags, access: staff, body: annotationsBody, response: ok,
      summary: "Write the caller's notes on a video, segment or question (an empty note deletes it)",
      errors: { 400: 'invalid payload', 403: 'not your video', 404: 'video not found' },
    },
    async ({ body, auth }) => {
      await assertVideoAccess(db, auth, body.video_id);
      await saveAnnotations(db, body.video_id, body.annotations, actor(auth));
      return { success: true, message: 'Annotations saved.', video_id: body.video_id, annotations: await listAnnotations(db, body.video_id) };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/expert/video/{video_id}/update-questions', tags, access: staff, params: videoParams, body: updateQuestionsBody,
      summary: 'Edit questions by id (wording, answer, type, expert_ranking, trashed); changing an answer drops its variants',
      response: ok, errors: { 400: 'invalid payload or unknown question', 403: 'not your video', 404: 'video not found' },
    },
    async ({ params, body, auth }) => {
      await assertVideoAccess(db, auth, params.video_id);
      const questions = await updateQuestions(db, params.video_id, body.questions, actor(auth));
      return { success: true, message: `Updated ${questions.length} question(s).`, video_id: params.video_id, questions };
    },
  );

  api.route(
    {
      method: 'get', path: '/api/questions-export/{video_id}', tags, access: staff, params: videoParams, produces: 'application/json',
      summary: 'The JSON export of a video\'s questions (file_url of /api/submit-questions)', errors: { 404: 'no export yet' },
    },
    async ({ params, auth }, _req, res: Response) => {
      await assertVideoAccess(db, auth, params.video_id);
      // from the media store, so any instance serves the export another instance wrote
      const data = await readQuestionExport(mediaStore(config), params.video_id);
      if (!data) throw notFound('This video has no question export yet.', 'export_not_found');
      res.type('application/json').send(data);
      return undefined;
    },
  );
}
