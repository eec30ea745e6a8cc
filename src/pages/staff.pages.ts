import type { Request, RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import { currentAuth, type Auth } from '../http/session.js';
import { childIdSchema, videoIdSchema } from '../http/ids.js';
import { assertChildAccess } from '../accounts/access.js';
import { accountsDeps } from '../accounts/deps.js';
import { ICON_KEYS } from '../accounts/icons.js';
import { assertVideoAccess } from '../videos/access.js';
import { notFound } from '../http/errors.js';
import type { Database } from '../db/database.js';
import { ChildrenRepository } from '../accounts/children.repository.js';
import { getVideo } from '../videos/videos.repository.js';

/**
 * The admin and parent/expert pages. Each page is a server-rendered shell (headings, forms,
 * empty regions) plus one ES module under /static/staff/ that drives the JSON API; the server
 * side only checks who is asking, validates ids and looks up the title to show.
 *
 * URLs (documented in docs/pages.md):
 *   /                                   chooser: kids, parents & experts, admin
 *   /admin                              admin login, then videos (download, library)
 *   /admin/videos/{video_id}            frames, question generation (live), review, submit, assign
 *   /admin/experts, /admin/children     accounts
 *   /admin/reports/{child_id}           a child's full report
 *   /expert                             expert login, then my videos + available videos
 *   /expert/questions                   the edit-questions page: every video and its question state
 *   /expert/edit/{video_id}             the edit page (contract)
 *   /expert/preview/{video_id}          preview as a child, with a companion and mode
 *   /expert/parents, /expert/reports, /expert/reports/{child_id}, /expert/account
 */
export function registerStaffPages(ctx: AppContext): void {
  const { app, db } = ctx;

  app.get('/', (req, res) => {
    res.render('staff/home', { title: 'Welcome', area: '', nav: [], auth: currentAuth(req) });
  });

  // ---- admin ----
  app.get('/admin', (req, res) => {
    if (currentAuth(req).role !== 'admin') {
      return res.render('staff/login', loginLocals('admin', req));
    }
    res.render('staff/admin-videos', adminLocals(req, 'Videos', 'admin-videos'));
  });
  app.get('/admin/experts', requireRole('admin'), (req, res) => {
    res.render('staff/admin-experts', adminLocals(req, 'Experts', 'admin-experts'));
  });
  app.get('/admin/children', requireRole('admin'), async (req, res) => {
    // No API lists every expert's families for the admin, so the page carries them.
    const { accounts } = accountsDeps(ctx);
    const families = [];
    for (const e of await accounts.experts.list()) {
      for (const p of await accounts.parents.listForExpert(e.expert_id)) {
        families.push({ parent_id: p.parent_id, expert_id: p.expert_id, display_name: p.display_name, is_default: p.is_default });
      }
    }
    res.render('staff/admin-children', { ...adminLocals(req, 'Children', 'admin-children'), families, icons: ICON_KEYS });
  });
  app.get('/admin/videos/:video_id', requireRole('admin'), async (req, res) => {
    const video = await videoFor(db, req);
    res.render('staff/admin-video', { ...adminLocals(req, video.title, 'admin-video', '/admin'), video });
  });
  app.get('/admin/reports/:child_id', requireRole('admin'), async (req, res) => {
    const child = await childFor(db, req);
    res.render('staff/report', {
      ...adminLocals(req, `Report: ${child.first_name}`, 'report', '/admin/children'),
      child,
      reportUrl: `/api/reports/child/${child.id}`,
    });
  });

  // ---- parents & experts ----
  app.get('/expert', (req, res) => {
    if (currentAuth(req).role !== 'expert') {
      return res.render('staff/login', loginLocals('expert', req));
    }
    res.render('staff/expert-home', expertLocals(req, 'My videos', 'expert-home'));
  });
  app.get('/expert/questions', requireRole('expert'), (req, res) => {
    res.render('staff/expert-questions', expertLocals(req, 'Edit questions', 'expert-questions'));
  });
  app.get('/expert/edit/:video_id', requireRole('expert'), async (req, res) => {
    const video = await videoFor(db, req);
    res.render('staff/expert-edit', { ...expertLocals(req, `Edit: ${video.title}`, 'expert-edit', '/expert/questions'), video });
  });
  app.get('/expert/preview/:video_id', requireRole('expert'), async (req, res) => {
    const video = await videoFor(db, req);
    res.render('staff/expert-preview', { ...expertLocals(req, `Preview: ${video.title}`, 'expert-preview', '/expert/questions'), video });
  });
  app.get('/expert/parents', requireRole('expert'), (req, res) => {
    res.render('staff/expert-parents', expertLocals(req, 'Parents & children', 'expert-parents'));
  });
  app.get('/expert/reports', requireRole('expert'), (req, res) => {
    res.render('staff/expert-reports', expertLocals(req, 'Reports', 'expert-reports'));
  });
  app.get('/expert/reports/:child_id', requireRole('expert'), async (req, res) => {
    const child = await childFor(db, req);
    res.render('staff/report', {
      ...expertLocals(req, `Report: ${child.first_name}`, 'report', '/expert/reports'),
      child,
      reportUrl: `/api/learners/children/${child.id}/report`,
    });
  });
  app.get('/expert/account', requireRole('expert'), (req, res) => {
    res.render('staff/expert-account', expertLocals(req, 'My access code', 'expert-account'));
  });
}

type Area = 'admin' | 'expert';

const ADMIN_NAV = [
  { href: '/admin', label: 'Videos' },
  { href: '/admin/experts', label: 'Experts' },
  { href: '/admin/children', label: 'Children' },
];
const EXPERT_NAV = [
  { href: '/expert', label: 'My videos' },
  { href: '/expert/questions', label: 'Questions' },
  { href: '/expert/parents', label: 'Families' },
  { href: '/expert/reports', label: 'Reports' },
  { href: '/expert/code', label: 'Coding' },
  { href: '/expert/account', label: 'My code' },
];

/** Pages of an area are for that role only; anyone else goes to the area's login with a way back. */
function requireRole(role: Area): RequestHandler {
  return (req, res, next) => {
    if (currentAuth(req).role === role) return next();
    res.redirect(303, `/${role}?next=${encodeURIComponent(req.originalUrl)}`);
  };
}

/** Where to go after logging in: only a page of the same area, never another site. */
function safeNext(area: Area, raw: unknown): string {
  if (typeof raw !== 'string') return `/${area}`;
  const ok = new RegExp(`^/${area}(/[A-Za-z0-9_/-]*)?(\\?[A-Za-z0-9_=&%.-]*)?$`).test(raw);
  return ok && !raw.includes('//') ? raw : `/${area}`;
}

function loginLocals(area: Area, req: Request) {
  return {
    title: area === 'admin' ? 'Admin log in' : 'Parents & experts log in',
    area,
    nav: [],
    page: `login-${area}`,
    script: 'login',
    next: safeNext(area, req.query.next),
    other: currentAuth(req).role,
  };
}

function navFor(items: { href: string; label: string }[], current: string) {
  return items.map((i) => ({ ...i, current: i.href === current }));
}

function adminLocals(req: Request, title: string, page: string, navHref?: string) {
  return {
    title,
    area: 'admin',
    page,
    script: page,
    nav: navFor(ADMIN_NAV, navHref ?? req.path),
    who: 'Admin',
    logout: '/api/admin/logout',
  };
}

function expertLocals(req: Request, title: string, page: string, navHref?: string) {
  const auth = currentAuth(req) as Extract<Auth, { role: 'expert' }>;
  return {
    title,
    area: 'expert',
    page,
    script: page,
    nav: navFor(EXPERT_NAV, navHref ?? req.path),
    who: auth.expertId,
    logout: '/api/expert/logout',
  };
}

interface VideoView {
  id: string;
  title: string;
  duration_seconds: number;
}

/** The video named in the path, after the id pattern and the caller's access are checked. */
async function videoFor(db: Database, req: Request): Promise<VideoView> {
  const id = videoIdSchema.safeParse(req.params.video_id);
  if (!id.success) throw notFound('There is no such video.', 'video_not_found');
  await assertVideoAccess(db, currentAuth(req), id.data);
  const video = await getVideo(db, id.data);
  if (!video) throw notFound('There is no such video.', 'video_not_found');
  return { id: video.id, title: video.title, duration_seconds: video.durationSeconds };
}

interface ChildView {
  id: string;
  first_name: string;
  last_name: string;
}

async function childFor(db: Database, req: Request): Promise<ChildView> {
  const id = childIdSchema.safeParse(req.params.child_id);
  if (!id.success) throw notFound('There is no such child profile.', 'child_not_found');
  await assertChildAccess(db, currentAuth(req), id.data);
  const child = (await new ChildrenRepository(db).get(id.data))!;
  return { id: child.child_id, first_name: child.first_name, last_name: child.last_name };
}

