import { z } from 'zod';
import type { AppContext } from '../context.js';
import { assertChildAccess } from '../accounts/access.js';
import { childIdSchema } from '../http/ids.js';
import type { Auth } from '../http/session.js';
import { questionExportLocations } from '../questions/export.js';
import { adminItem, kidsItem, libraryItem, listItem, loadQuestionCounts } from './library.service.js';
import { mediaStore } from '../storage/index.js';
import { listVideos } from './videos.repository.js';
import { adminVideosResponse, kidsVideoItem, kidsVideosResponse, libraryVideo, queryBool, videosListResponse } from './videos.schema.js';

/**
 * The video lists. Who sees what: the admin every downloaded video; an expert the videos assigned
 * to or claimed by them (the bundled sample included); a child session what the family's expert sees.
 */
export function registerLibraryRoutes(ctx: AppContext): void {
  const { api, config, db } = ctx;
  /** the expert whose videos a non-admin caller sees */
  const visibleTo = (auth: Auth) => (auth.role === 'expert' || auth.role === 'child' ? { expertId: auth.expertId } : {});

  api.route(
    {
      method: 'get',
      path: '/api/admin/videos',
      summary: 'Every downloaded video with its frame and question state (only those with frames unless include_without_frames)',
      tags: ['Admin'],
      access: ['admin'],
      query: z.object({ include_without_frames: queryBool }),
      response: adminVideosResponse,
    },
    async ({ query }) => {
      const counts = await loadQuestionCounts(db);
      const rows = await listVideos(db, { withFramesOnly: !query.include_without_frames });
      const store = mediaStore(config);
      // only a video with questions can have an export: the others need no lookup in the store
      const exports = await questionExportLocations(store, rows.filter((v) => counts.has(v.id)).map((v) => v.id));
      const videos = rows.map((v) => adminItem(v, counts, store, exports));
      return { success: true, count: videos.length, videos, message: videos.length === 0 ? 'No videos yet.' : `${videos.length} video(s).` };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/videos-list',
      summary: "Videos for review: all for the admin, the expert's assigned and claimed ones for an expert",
      tags: ['Expert'],
      access: ['admin', 'expert'],
      response: videosListResponse,
    },
    async ({ auth }) => {
      const counts = await loadQuestionCounts(db);
      const videos = (await listVideos(db, visibleTo(auth))).map((v) => listItem(v, counts));
      return { success: true, videos, message: videos.length === 0 ? 'No videos yet.' : `${videos.length} video(s).` };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/kids_videos',
      summary: "Videos a child can play: the family expert's videos (child session), the expert's own, or all (admin)",
      tags: ['Kids'],
      access: ['admin', 'expert', 'child'],
      response: kidsVideosResponse,
    },
    async ({ auth }) => {
      const videos = (await listVideos(db, visibleTo(auth))).map(kidsItem);
      return { success: true, count: videos.length, videos };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/learners/children/{child_id}/videos',
      summary: "Videos available to a child: those assigned to or claimed by the child's expert",
      tags: ['Kids'],
      access: ['admin', 'expert', 'child'],
      params: z.object({ child_id: childIdSchema }),
      response: z.object({
        success: z.boolean(),
        child_id: z.string(),
        expert_id: z.string(),
        count: z.number().int(),
        videos: z.array(kidsVideoItem.extend(libraryVideo.pick({ duration_seconds: true, has_questions: true, final_question_count: true, is_sample: true }).shape)),
      }),
      errors: { 403: 'the child is not in your family', 404: 'unknown child' },
    },
    async ({ auth, params }) => {
      const child = await assertChildAccess(db, auth, params.child_id);
      const counts = await loadQuestionCounts(db);
      const videos = (await listVideos(db, { expertId: child.expert_id })).map((v) => {
        const lib = libraryItem(v, counts);
        return {
          ...kidsItem(v),
          duration_seconds: lib.duration_seconds,
          has_questions: lib.final_question_count > 0,
          final_question_count: lib.final_question_count,
          is_sample: lib.is_sample,
        };
      });
      return { success: true, child_id: child.id, expert_id: child.expert_id, count: videos.length, videos };
    },
  );
}
