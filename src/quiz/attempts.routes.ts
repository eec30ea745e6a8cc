import type { AppContext } from '../context.js';
import { deleteCheckpoint, getCheckpoint, listCheckpoints, putCheckpoint, videoProgress } from './checkpoint.service.js';
import { legacyScoreBody } from './attempts.legacy.js';
import { quizScores, saveQuizScore } from './quiz.service.js';
import { checkpointBody, childParams, childVideoParams, saveQuizBody, saveQuizResponse, scoresQuery } from './quiz.schema.js';

const ROLES = ['admin', 'expert', 'child'] as const;
const NOT_YOURS = { 401: 'not logged in', 403: "another family's child or a video outside the child's library", 404: 'unknown child or video' };

/** Saving and reading attempts, and the checkpoints a child resumes from. */
export function registerAttemptRoutes(ctx: AppContext): void {
  const { api, db } = ctx;

  api.route(
    {
      method: 'post',
      path: '/api/save-quiz-score',
      summary: 'Save a finished quiz attempt with its answers (or, with checkpoint: true, a checkpoint)',
      tags: ['Kids'],
      access: ROLES,
      body: saveQuizBody,
      response: saveQuizResponse,
      errors: { 400: 'invalid field', 422: 'score_data (the original service\'s nested form) is not an object', ...NOT_YOURS },
      middleware: [legacyScoreBody],
    },
    async ({ body, auth }, req) => saveQuizScore(db, auth, body, req.session?.companion),
  );

  api.route(
    {
      method: 'get',
      path: '/api/get-quiz-scores/{child_id}',
      summary: "All of a child's attempts with their answers, newest first",
      tags: ['Kids'],
      access: ROLES,
      params: childParams,
      query: scoresQuery,
      errors: NOT_YOURS,
    },
    ({ params, query, auth }) => quizScores(db, auth, params.child_id, { videoId: query.video_id, limit: query.limit }),
  );

  api.route(
    {
      method: 'get',
      path: '/api/learners/children/{child_id}/progress/{video_id}',
      summary: 'Where the child left this video (its checkpoint) and the last finished attempt',
      tags: ['Kids'],
      access: ROLES,
      params: childVideoParams,
      errors: NOT_YOURS,
    },
    ({ params, auth }) => videoProgress(db, auth, params.child_id, params.video_id),
  );

  api.route(
    {
      method: 'get',
      path: '/api/quiz/checkpoints/{child_id}',
      summary: "The child's unfinished videos (checkpoints)",
      tags: ['Kids'],
      access: ROLES,
      params: childParams,
      errors: NOT_YOURS,
    },
    async ({ params, auth }) => {
      const checkpoints = await listCheckpoints(db, auth, params.child_id);
      return { success: true, child_id: params.child_id, count: checkpoints.length, checkpoints };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/quiz/checkpoints/{child_id}/{video_id}',
      summary: 'The checkpoint of one video, or null',
      tags: ['Kids'],
      access: ROLES,
      params: childVideoParams,
      errors: NOT_YOURS,
    },
    async ({ params, auth }) => ({ success: true, checkpoint: await getCheckpoint(db, auth, params.child_id, params.video_id) }),
  );

  // PUT from the player; POST because navigator.sendBeacon (used when the page is left) can only POST.
  for (const method of ['put', 'post'] as const) {
    api.route(
      {
        method,
        path: '/api/quiz/checkpoints/{child_id}/{video_id}',
        summary: 'Save (replace) where the child left this video',
        tags: ['Kids'],
        access: ROLES,
        params: childVideoParams,
        body: checkpointBody,
        errors: { 400: 'invalid field', ...NOT_YOURS },
      },
      async ({ params, body, auth }, req) => ({
        success: true,
        checkpoint: await putCheckpoint(db, auth, params.child_id, params.video_id, body, req.session?.companion),
      }),
    );
  }

  api.route(
    {
      method: 'delete',
      path: '/api/quiz/checkpoints/{child_id}/{video_id}',
      summary: 'Forget where the child left this video',
      tags: ['Kids'],
      access: ROLES,
      params: childVideoParams,
      errors: NOT_YOURS,
    },
    async ({ params, auth }) => ({ success: true, deleted: await deleteCheckpoint(db, auth, params.child_id, params.video_id) }),
  );
}
