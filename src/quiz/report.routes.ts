import type { AppContext } from '../context.js';
import { assertChildAccess } from '../accounts/access.js';
import { notFound } from '../http/errors.js';
import { AttemptsRepository } from './attempts.repository.js';
import { buildChildReport, loadChildren, summarize, type ChildReport, type ChildRow } from './report.service.js';
import { childParams, expertReportQuery, reportQuery } from './quiz.schema.js';

/** The three report routes share one builder (report.service.ts). */
export function registerReportRoutes(ctx: AppContext): void {
  const { api, db } = ctx;

  api.route(
    {
      method: 'get',
      path: '/api/learners/children/{child_id}/report',
      summary: "A child's progress report (optional video_id / mode filters)",
      tags: ['Kids'],
      access: ['admin', 'expert', 'child'],
      params: childParams,
      query: reportQuery,
      errors: { 403: "another family's child", 404: 'unknown child' },
    },
    async ({ params, query, auth }) => {
      await assertChildAccess(db, auth, params.child_id);
      const [child] = await loadChildren(db, { childId: params.child_id });
      return { success: true, ...(await buildChildReport(db, child!, { videoId: query.video_id, mode: query.mode })) };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/reports/child/{child_id}',
      summary: "A child's full report, with every attempt and answer",
      tags: ['Admin'],
      access: ['admin'],
      params: childParams,
      query: reportQuery,
      errors: { 404: 'unknown child' },
    },
    async ({ params, query, auth }) => {
      await assertChildAccess(db, auth, params.child_id);
      const [child] = await loadChildren(db, { childId: params.child_id });
      return { success: true, ...(await buildChildReport(db, child!, { videoId: query.video_id, mode: query.mode }, { includeAttempts: true })) };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/expert/report',
      summary: "Progress of the expert's children (filters: child_id, video_id, mode; admin: expert_id)",
      tags: ['Expert'],
      access: ['expert', 'admin'],
      query: expertReportQuery,
      errors: { 403: "a child of another expert", 404: 'unknown child or expert' },
    },
    async ({ query, auth }) => {
      let expertId: string | null = null;
      if (auth.role === 'expert') expertId = auth.expertId;
      else if (query.expert_id) {
        if (!(await new AttemptsRepository(db).expertExists(query.expert_id))) {
          throw notFound(`Expert ${query.expert_id} was not found.`, 'expert_not_found');
        }
        expertId = query.expert_id;
      }
      let children: ChildRow[];
      if (query.child_id) {
        const child = await assertChildAccess(db, auth, query.child_id);
        if (expertId && child.expert_id !== expertId) children = [];
        else children = await loadChildren(db, { childId: query.child_id });
      } else {
        children = await loadChildren(db, expertId ? { expertId } : {});
      }
      const filters = { videoId: query.video_id, mode: query.mode };
      const reports: ChildReport[] = [];
      for (const c of children) reports.push(await buildChildReport(db, c, filters));
      return {
        success: true,
        expert_id: expertId,
        filters: { child_id: query.child_id ?? null, video_id: query.video_id ?? null, mode: query.mode ?? null },
        summary: summarize(reports),
        children: reports,
      };
    },
  );
}
