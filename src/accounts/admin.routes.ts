import { z } from 'zod';
import type { AppContext } from '../context.js';
import { accountsDeps } from './deps.js';
import {
  childParams,
  childView,
  createChildBody,
  createExpertBody,
  deleteExpertQuery,
  expertParams,
  expertOption,
  expertView,
  listChildrenQuery,
  updateChildBody,
  updateExpertBody,
} from './accounts.schema.js';

const tags = ['Admin'];
const admin = ['admin'] as const;

/** Admin management of expert accounts and child profiles. */
export function registerAdminAccountRoutes(ctx: AppContext): void {
  const { api } = ctx;
  const { accounts } = accountsDeps(ctx);

  api.route(
    {
      method: 'get', path: '/api/admin/experts', summary: 'List expert accounts', tags, access: admin,
      response: z.object({ success: z.boolean(), experts: z.array(expertView.extend({ child_count: z.number(), parent_count: z.number() })) }),
    },
    async () => ({ success: true, experts: await accounts.experts.list() }),
  );

  api.route(
    {
      method: 'post', path: '/api/admin/experts', summary: 'Create an expert (password = first access code)', tags, access: admin,
      body: createExpertBody, response: z.object({ success: z.boolean(), message: z.string(), expert: expertView }),
      errors: { 409: 'expert id or code already in use' },
    },
    async ({ body }) => ({ success: true, message: `Expert ${body.display_name} created.`, expert: await accounts.createExpert(body) }),
  );

  api.route(
    {
      method: 'put', path: '/api/admin/experts/{expert_id}', summary: 'Update an expert (display_name, login_code, active)', tags,
      access: admin, params: expertParams, body: updateExpertBody, response: z.object({ success: z.boolean(), expert: expertView }),
    },
    async ({ params, body }) => ({ success: true, message: 'Expert updated.', expert: await accounts.updateExpert(params.expert_id, body) }),
  );

  api.route(
    {
      method: 'delete', path: '/api/admin/experts/{expert_id}',
      summary: "Delete an expert; refused while they own children unless move_children_to names who receives them (no attempt is ever lost)",
      tags, access: admin, params: expertParams, query: deleteExpertQuery,
      errors: { 404: 'unknown expert (or move_children_to)', 409: 'expert_has_children: the expert still owns children; move_target_inactive' },
    },
    async ({ params, query }) => {
      const { moved } = await accounts.deleteExpert(params.expert_id, { moveChildrenTo: query.move_children_to });
      const message = moved
        ? `Expert ${params.expert_id} deleted; ${moved.children} children, ${moved.parents} families and ${moved.videos} videos moved to ${query.move_children_to}.`
        : `Expert ${params.expert_id} deleted.`;
      return { success: true, message, moved_to: query.move_children_to ?? null, moved };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/admin/experts/{expert_id}/deactivate', summary: 'Deactivate an expert (logs out their sessions)',
      tags, access: admin, params: expertParams,
    },
    async ({ params }) => ({ success: true, message: 'Expert deactivated.', expert: await accounts.updateExpert(params.expert_id, { active: false }) }),
  );

  api.route(
    {
      method: 'get', path: '/api/admin/children', summary: 'List child profiles', tags, access: admin, query: listChildrenQuery,
      response: z.object({ success: z.boolean(), count: z.number(), children: z.array(childView), experts: z.array(expertOption) }),
    },
    async ({ query }) => {
      const children = await accounts.children.list({ expertId: query.expert_id, includeInactive: query.include_inactive ?? false });
      // `experts`: the drop-down list the original service's admin page reads from this answer
      return { success: true, count: children.length, children, experts: await accounts.experts.options() };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/admin/children', summary: "Create a child profile (linked to the expert's default family unless parent_id is given)",
      tags, access: admin, body: createChildBody, response: z.object({ success: z.boolean(), message: z.string(), child: childView }),
    },
    async ({ body }) => ({ success: true, message: `${body.first_name} was added.`, child: await accounts.createChild(body) }),
  );

  api.route(
    {
      method: 'put', path: '/api/admin/children/{child_id}', summary: 'Update a child profile', tags, access: admin,
      params: childParams, body: updateChildBody, response: z.object({ success: z.boolean(), child: childView }),
    },
    async ({ params, body }) => ({ success: true, message: 'Child updated.', child: await accounts.updateChild(params.child_id, body) }),
  );

  api.route(
    { method: 'delete', path: '/api/admin/children/{child_id}', summary: 'Delete a child profile and its scores', tags, access: admin, params: childParams },
    async ({ params }) => {
      await accounts.requireChild(params.child_id);
      await accounts.children.delete(params.child_id);
      return { success: true, message: `Child ${params.child_id} deleted.` };
    },
  );

  api.route(
    { method: 'post', path: '/api/admin/children/{child_id}/deactivate', summary: 'Deactivate a child profile', tags, access: admin, params: childParams },
    async ({ params }) => ({ success: true, message: 'Child deactivated.', child: await accounts.updateChild(params.child_id, { active: false }) }),
  );

  api.route(
    { method: 'post', path: '/api/admin/children/{child_id}/unlink', summary: 'Unlink a child from its parent', tags, access: admin, params: childParams },
    async ({ params }) => ({ success: true, message: 'Child unlinked from its parent.', child: await accounts.updateChild(params.child_id, { parent_id: null }) }),
  );
}
