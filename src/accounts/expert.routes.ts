import { z } from 'zod';
import type { AppContext } from '../context.js';
import type { Auth } from '../http/session.js';
import { forbidden } from '../http/errors.js';
import { accountsDeps } from './deps.js';
import { childParams, childView, createParentBody, expertParams, linkChildBody, loginCodeBody, parentParams, parentView } from './accounts.schema.js';

const tags = ['Expert'];

/** What an expert manages: their own code, their families (parents) and their children. */
export function registerExpertAccountRoutes(ctx: AppContext): void {
  const { api } = ctx;
  const { accounts } = accountsDeps(ctx);
  const expertOf = (auth: Auth) => (auth.role === 'expert' ? auth.expertId : '');

  api.route(
    {
      method: 'get', path: '/api/expert/access-code', summary: "The logged-in expert's access code", tags, access: ['expert'],
      response: z.object({ success: z.boolean(), expert_id: z.string(), access_code: z.string().nullable() }),
    },
    async ({ auth }) => {
      const expertId = expertOf(auth);
      return { success: true, expert_id: expertId, access_code: await accounts.codes.reveal('expert', expertId) };
    },
  );

  api.route(
    {
      method: 'put', path: '/api/expert/my-login-code', summary: "Change the logged-in expert's access code", tags, access: ['expert'],
      body: loginCodeBody, errors: { 409: 'code already in use' },
    },
    async ({ auth, body }) => {
      await accounts.codes.set('expert', expertOf(auth), body.login_code);
      return { success: true, message: 'Your access code was changed.' };
    },
  );

  api.route(
    {
      method: 'get', path: '/api/expert/parents', summary: 'Parents (families) managed by the expert, with their codes', tags, access: ['expert'],
      response: z.object({
        success: z.boolean(),
        parents: z.array(parentView.extend({ child_count: z.number(), login_code: z.string().nullable() })),
      }),
    },
    async ({ auth }) => {
      const parents = [];
      for (const p of await accounts.parents.listForExpert(expertOf(auth))) {
        parents.push({ ...p, login_code: await accounts.codes.reveal('parent', p.parent_id) });
      }
      return { success: true, parents };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/expert/parents', summary: 'Create a parent (family) with an optional access code', tags, access: ['expert'],
      body: createParentBody, response: z.object({ success: z.boolean(), parent: parentView }),
    },
    async ({ auth, body }) => ({ success: true, message: 'Parent created.', parent: await accounts.createParent(expertOf(auth), body.display_name, body.login_code) }),
  );

  api.route(
    {
      method: 'get', path: '/api/expert/parents/{parent_id}/children', summary: "A parent's children", tags, access: ['expert'],
      params: parentParams, response: z.object({ success: z.boolean(), parent: parentView, children: z.array(childView) }),
    },
    async ({ auth, params }) => {
      const parent = await accounts.requireOwnParent(expertOf(auth), params.parent_id);
      return { success: true, parent, children: await accounts.children.list({ parentId: parent.parent_id, includeInactive: true }) };
    },
  );

  api.route(
    {
      method: 'put', path: '/api/expert/parents/{parent_id}/login-code', summary: "Set a parent's access code (children log in with it)",
      tags, access: ['expert'], params: parentParams, body: loginCodeBody, errors: { 409: 'code already in use' },
    },
    async ({ auth, params, body }) => {
      const parent = await accounts.requireOwnParent(expertOf(auth), params.parent_id);
      await accounts.codes.set('parent', parent.parent_id, body.login_code);
      return { success: true, message: `The code for ${parent.display_name} was set.`, parent_id: parent.parent_id };
    },
  );

  api.route(
    {
      method: 'put', path: '/api/expert/children/{child_id}/parent', summary: "Link one of the expert's children to one of their parents (null unlinks)",
      tags, access: ['expert'], params: childParams, body: linkChildBody, response: z.object({ success: z.boolean(), child: childView }),
    },
    async ({ auth, params, body }) => {
      const child = await accounts.requireChild(params.child_id);
      if (child.expert_id !== expertOf(auth)) throw forbidden('This child is not one of yours.', 'child_not_yours');
      return { success: true, child: await accounts.updateChild(child.child_id, { parent_id: body.parent_id }) };
    },
  );

  api.route(
    {
      method: 'get', path: '/api/learners/experts/{expert_id}/children', summary: 'Children of an expert (the expert themself or the admin)',
      tags: ['Kids'], access: ['admin', 'expert'], params: expertParams,
      response: z.object({ success: z.boolean(), expert_id: z.string(), count: z.number(), children: z.array(childView) }),
    },
    async ({ auth, params }) => {
      if (auth.role === 'expert' && auth.expertId !== params.expert_id) throw forbidden('You can only list your own children.', 'not_your_children');
      await accounts.requireExpert(params.expert_id);
      const children = await accounts.children.list({ expertId: params.expert_id, includeInactive: false });
      return { success: true, expert_id: params.expert_id, count: children.length, children };
    },
  );
}
