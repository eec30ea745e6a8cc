import type { AppContext } from '../context.js';
import type { Auth } from '../http/session.js';
import { conflict, forbidden, notFound } from '../http/errors.js';
import { ExpertsRepository } from '../accounts/experts.repository.js';
import { assign, assignmentsByVideo, claim, claimOwner, listClaims, relationsFor, unassign, unclaim } from './assignments.repository.js';
import { deleteVideo } from './delete.service.js';
import { libraryItem, loadQuestionCounts } from './library.service.js';
import { getVideo, listUnclaimedVideos, listVideos, type Video } from './videos.repository.js';
import { actionResponse, assignmentBody, assignmentParams, assignmentsResponse, expertVideosResponse, videoParams } from './videos.schema.js';

/**
 * Who works on which video: the admin assigns videos to experts (a video may have several);
 * an expert claims an unclaimed video (one owner per video) and may give it back. The bundled
 * sample is a library video like any other.
 */
export function registerAssignmentRoutes(ctx: AppContext): void {
  const { api, config, db } = ctx;
  const expertOf = (auth: Auth) => (auth.role === 'expert' ? auth.expertId : '');
  const experts = new ExpertsRepository(db);
  const requireVideo = async (id: string): Promise<Video> => {
    const v = await getVideo(db, id);
    if (!v || v.state !== 'downloaded') throw notFound(`Video ${id} was not found.`, 'video_not_found');
    return v;
  };
  /** A listing as the expert sees it: each video with its question counts and this expert's relation to it. */
  const expertLibrary = async (expertId: string, rows: (expertId: string) => Promise<Video[]>) => {
    const counts = await loadQuestionCounts(db);
    const rel = { expertId, ...(await relationsFor(db, expertId)) };
    const videos = (await rows(expertId)).map((v) => libraryItem(v, counts, rel));
    return { success: true, count: videos.length, videos };
  };

  api.route(
    {
      method: 'get',
      path: '/api/expert/videos',
      summary: "The expert's videos: assigned to or claimed by them",
      tags: ['Expert'],
      access: ['expert'],
      response: expertVideosResponse,
    },
    ({ auth }) => expertLibrary(expertOf(auth), (expertId) => listVideos(db, { expertId })),
  );

  api.route(
    {
      method: 'get',
      path: '/api/expert/videos/available',
      summary: 'Downloaded videos no expert has claimed',
      tags: ['Expert'],
      access: ['expert'],
      response: expertVideosResponse,
    },
    ({ auth }) => expertLibrary(expertOf(auth), () => listUnclaimedVideos(db)),
  );

  api.route(
    {
      method: 'post',
      path: '/api/expert/videos/{video_id}/claim',
      summary: 'Claim an unclaimed video (idempotent for its owner)',
      tags: ['Expert'],
      access: ['expert'],
      params: videoParams,
      response: actionResponse,
      errors: { 404: 'unknown video', 409: 'claimed by another expert' },
    },
    async ({ auth, params }) => {
      const expertId = expertOf(auth);
      const video = await requireVideo(params.video_id);
      const owner = await claim(db, video.id, expertId);
      if (owner !== expertId) throw conflict('Another expert has already claimed this video.', 'already_claimed');
      return { success: true, message: `You claimed "${video.title}".`, video_id: video.id, expert_id: expertId };
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/api/expert/videos/{video_id}/unclaim',
      summary: 'Give back a video the expert claimed',
      tags: ['Expert'],
      access: ['expert'],
      params: videoParams,
      response: actionResponse,
      errors: { 403: 'claimed by another expert', 404: 'unknown video, or not claimed' },
    },
    async ({ auth, params }) => {
      const expertId = expertOf(auth);
      const video = await requireVideo(params.video_id);
      const owner = await claimOwner(db, video.id);
      if (owner === undefined) throw notFound('This video is not claimed.', 'not_claimed');
      if (owner !== expertId) throw forbidden('This video is claimed by another expert.', 'claimed_by_other');
      await unclaim(db, video.id, expertId);
      return { success: true, message: `You gave back "${video.title}".`, video_id: video.id, expert_id: expertId };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/admin/videos/assignments',
      summary: 'Every video with the experts it is assigned to, the claims experts made, and the experts to pick from',
      tags: ['Admin'],
      access: ['admin'],
      response: assignmentsResponse,
    },
    async () => {
      const assignments = await assignmentsByVideo(db);
      return { success: true, count: assignments.length, assignments, claims: await listClaims(db), experts: await experts.options() };
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/api/admin/videos/{video_id}',
      summary: "Delete a video from the library (the sample too: it is then not re-imported); children's attempts are kept",
      tags: ['Admin'],
      access: ['admin'],
      params: videoParams,
      errors: { 404: 'unknown video', 409: 'video_busy: a download or frame extraction of it is running' },
    },
    async ({ params }) => {
      const r = await deleteVideo(db, config, params.video_id);
      const kept = r.attempts_kept > 0 ? ` ${r.attempts_kept} saved quiz attempts of it are kept in the children's reports.` : '';
      return { success: true, message: `"${r.title}" was deleted.${kept}`, ...r };
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/admin/videos/assignments',
      summary: 'Assign a video to an expert (idempotent)',
      tags: ['Admin'],
      access: ['admin'],
      body: assignmentBody,
      response: actionResponse,
      errors: { 404: 'unknown video or expert' },
    },
    async ({ body }) => {
      const video = await requireVideo(body.video_id);
      if (!(await experts.exists(body.expert_id))) throw notFound(`Expert ${body.expert_id} was not found.`, 'expert_not_found');
      const created = await assign(db, video.id, body.expert_id);
      const message = created ? `"${video.title}" is assigned to ${body.expert_id}.` : `"${video.title}" was already assigned to ${body.expert_id}.`;
      return { success: true, message, video_id: video.id, expert_id: body.expert_id };
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/api/admin/videos/assignments/{video_id}/{expert_id}',
      summary: 'Remove an assignment',
      tags: ['Admin'],
      access: ['admin'],
      params: assignmentParams,
      response: actionResponse,
      errors: { 404: 'no such assignment' },
    },
    async ({ params }) => {
      if (!(await unassign(db, params.video_id, params.expert_id))) throw notFound('This video is not assigned to that expert.', 'assignment_not_found');
      return { success: true, message: 'Assignment removed.', video_id: params.video_id, expert_id: params.expert_id };
    },
  );
}
