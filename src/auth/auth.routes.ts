import type { Request } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { COMPANIONS } from '../config.js';
import { accountsDeps } from '../accounts/deps.js';
import { childView, selectChildBody } from '../accounts/accounts.schema.js';
import { forbidden, unauthorized } from '../http/errors.js';
import { endSession, startSession } from '../http/session.js';
import { PER_ACCOUNT, PER_CLIENT, PER_KIND, type ThrottleRule } from './login-throttle.js';

const tags = ['Auth'];
const codeBody = z.object({ access_code: z.string({ error: 'is required' }).min(1, 'is required').max(200, 'is too long') });
const childrenForSession = z.array(childView.pick({ child_id: true, first_name: true, last_name: true, icon_key: true, interaction_mode: true }));

/** Logins for the three kinds of session (admin, expert, child tablet), logouts, and who-am-I. */
export function registerAuth(ctx: AppContext): void {
  const { api, config } = ctx;
  const { accounts, throttle, secrets } = accountsDeps(ctx);
  const client = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';
  const keys = (kind: string, req: Request, account?: string): [string, ThrottleRule][] => [
    [`client:${kind}:${client(req)}`, PER_CLIENT],
    [account ? `account:${kind}:${account}` : `kind:${kind}`, account ? PER_ACCOUNT : PER_KIND],
  ];

  /** Checks the throttle, runs the check, records the outcome; 401 with `message` on failure. */
  const guarded = async <T>(kind: string, req: Request, account: string | undefined, check: () => Promise<T | undefined>, message: string): Promise<T> => {
    const k = keys(kind, req, account);
    await throttle.check(k);
    const result = await check();
    if (result === undefined) {
      await throttle.fail(k);
      throw unauthorized(message, 'invalid_credentials');
    }
    await throttle.succeed([k[0]![0]]);
    return result;
  };

  const adminLogin = (req: Request, password: string) =>
    guarded('admin', req, 'admin', async () => (secrets.equal(password, config.ADMIN_PASSWORD) ? true : undefined), 'Wrong admin password.');

  const expertLogin = (req: Request, code: string) =>
    guarded(
      'expert',
      req,
      undefined,
      async () => {
        const owner = await accounts.codes.find(code);
        if (owner?.kind !== 'expert') return undefined;
        const expert = await accounts.experts.get(owner.ownerId);
        return expert?.active ? expert : undefined;
      },
      'This access code is not valid.',
    );

  api.route(
    {
      method: 'post', path: '/api/admin/verify-access', summary: 'Admin login with the admin password', tags, access: 'public',
      body: z.object({ password: z.string({ error: 'is required' }).max(500) }), errors: { 401: 'wrong password', 429: 'too many attempts' },
    },
    async ({ body }, req) => {
      await adminLogin(req, body.password);
      await startSession(req, { role: 'admin' });
      return { success: true, role: 'admin', message: 'Welcome, admin.', redirect: '/admin' };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/expert/login', summary: 'Parent/expert login with a personal access code', tags, access: 'public',
      body: codeBody, errors: { 401: 'wrong access code', 429: 'too many attempts' },
    },
    async ({ body }, req) => {
      const expert = await expertLogin(req, body.access_code);
      await startSession(req, { role: 'expert', expertId: expert.expert_id });
      return { success: true, role: 'expert', expert_id: expert.expert_id, display_name: expert.display_name, redirect: '/expert' };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/verify-password', summary: 'Legacy: check an admin password or an expert access code (and log in)',
      tags, access: 'public', bodyType: 'form', validationStyle: 'fastapi',
      body: z.object({
        user_type: z.enum(['admin', 'expert'], { error: 'must be admin or expert' }),
        password: z.string({ error: 'Field required' }).min(1, 'Field required').max(500),
      }),
      response: z.object({ success: z.boolean(), redirect: z.string().optional(), message: z.string().optional() }),
      errors: { 401: 'wrong password', 422: 'validation error with detail[]' },
    },
    async ({ body }, req) => {
      if (body.user_type === 'admin') {
        await adminLogin(req, body.password);
        await startSession(req, { role: 'admin' });
        return { success: true, redirect: '/admin', message: 'Welcome, admin.' };
      }
      const expert = await expertLogin(req, body.password);
      await startSession(req, { role: 'expert', expertId: expert.expert_id });
      return { success: true, redirect: '/expert', message: `Welcome, ${expert.display_name}.` };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/learners/parents/login', summary: "Child tablet login with a parent's access code", tags: ['Kids'],
      access: 'public', body: codeBody, errors: { 401: 'invalid code', 429: 'too many attempts' },
      response: z.object({
        success: z.boolean(),
        parent: z.object({ parent_id: z.string(), display_name: z.string() }),
        expert_id: z.string(),
        children: childrenForSession,
      }),
    },
    async ({ body }, req) => {
      const parent = await guarded(
        'parent',
        req,
        undefined,
        async () => {
          const owner = await accounts.codes.find(body.access_code);
          if (owner?.kind !== 'parent') return undefined;
          const p = await accounts.parents.get(owner.ownerId);
          return p && (await accounts.experts.get(p.expert_id))?.active ? p : undefined;
        },
        'This code is not valid. Ask a grown-up for the family code.',
      );
      await startSession(req, { role: 'child', parentId: parent.parent_id, expertId: parent.expert_id });
      return {
        success: true,
        parent: { parent_id: parent.parent_id, display_name: parent.display_name },
        expert_id: parent.expert_id,
        children: await familyChildren(parent.parent_id),
      };
    },
  );

  const familyChildren = async (parentId: string) =>
    (await accounts.children.list({ parentId, includeInactive: false })).map((c) => ({
      child_id: c.child_id,
      first_name: c.first_name,
      last_name: c.last_name,
      icon_key: c.icon_key,
      interaction_mode: c.interaction_mode,
    }));

  api.route(
    {
      method: 'post', path: '/api/learners/session/child', summary: 'Pick the child profile for this tablet session', tags: ['Kids'],
      access: ['child'], body: selectChildBody,
    },
    async ({ auth, body }, req) => {
      if (auth.role !== 'child') throw forbidden();
      const child = await accounts.children.get(body.child_id);
      if (!child || child.parent_id !== auth.parentId || !child.active) throw forbidden('This profile is not in your family.', 'child_not_yours');
      req.session.childId = child.child_id;
      return { success: true, child: (await familyChildren(auth.parentId)).find((c) => c.child_id === child.child_id) };
    },
  );

  api.route(
    {
      method: 'post', path: '/api/learners/session/companion', summary: "Remember the child's companion (the default wording of /api/final-questions)",
      tags: ['Kids'], access: ['child'], body: z.object({ companion: z.enum(COMPANIONS, { error: 'must be bunny, pig or alligator' }) }),
    },
    ({ body }, req) => {
      req.session.companion = body.companion;
      return { success: true, companion: body.companion };
    },
  );

  api.route(
    { method: 'get', path: '/api/learners/session', summary: 'The tablet session: family, children and the picked child', tags: ['Kids'], access: ['child'] },
    async ({ auth }, req) => {
      if (auth.role !== 'child') throw forbidden();
      const parent = await accounts.parents.get(auth.parentId);
      const children = await familyChildren(auth.parentId);
      return {
        success: true,
        role: 'child',
        parent: parent && { parent_id: parent.parent_id, display_name: parent.display_name },
        children,
        child: children.find((c) => c.child_id === auth.childId) ?? null,
        companion: req.session.companion ?? null,
      };
    },
  );

  api.route(
    { method: 'get', path: '/api/me', summary: 'Who is logged in on this session', tags, access: 'public' },
    async ({ auth }) => {
      if (auth.role === 'expert') {
        const expert = await accounts.experts.get(auth.expertId);
        return { success: true, role: 'expert', expert_id: auth.expertId, display_name: expert?.display_name ?? auth.expertId };
      }
      if (auth.role === 'child') return { success: true, role: 'child', parent_id: auth.parentId, child_id: auth.childId ?? null };
      return { success: true, role: auth.role };
    },
  );

  for (const [path, summary, tag] of [
    ['/api/expert/logout', 'Log out (any session)', 'Expert'],
    ['/api/admin/logout', 'Log out the admin session', 'Admin'],
    ['/api/learners/logout', 'Log out the tablet session', 'Kids'],
  ] as const) {
    api.route({ method: 'post', path, summary, tags: [tag], access: 'public' }, async (_input, req, res) => {
      await endSession(req);
      res.clearCookie('kvq.sid', { path: '/' });
      return { success: true, message: 'Logged out.' };
    });
  }
}
