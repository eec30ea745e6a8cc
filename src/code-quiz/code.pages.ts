import type { Response } from 'express';
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { currentAuth } from '../http/session.js';
import { assertOwnClass, assertProblemForWork } from './access.js';

/**
 * The code quiz pages: server-rendered shells whose scripts (public/code/) drive the JSON API.
 *   /kids/code                      the picked child's problems (tablet)
 *   /kids/code/{problem_id}         the code page: editor, "Help me", "Run" (bundled: CodeMirror 6);
 *                                   the problem's expert or the admin get it as a try-out
 *   /expert/code                    the expert's classes and enrolment
 *   /expert/code/classes/{class_id} the class's problems (editor with test cases) and what the class did
 */
export function registerCodePages(ctx: AppContext): void {
  const { app, db } = ctx;

  app.get('/kids/code', (req, res) => {
    const auth = currentAuth(req);
    if (auth.role !== 'child') return res.redirect(303, '/kids');
    if (!auth.childId) return res.redirect(303, '/kids/profiles');
    render(res, 'code/kids-problems', { title: 'Coding', data: { 'child-id': auth.childId } });
  });

  app.get('/kids/code/:problem_id', async (req, res) => {
    const auth = currentAuth(req);
    if (auth.role === 'anonymous') return res.redirect(303, '/kids');
    if (auth.role === 'child' && !auth.childId) return res.redirect(303, '/kids/profiles');
    const id = pageId(req.params.problem_id);
    const work = await allowed(() => assertProblemForWork(db, auth, id));
    if (!work) return auth.role === 'child' ? res.redirect(303, '/kids/code') : res.redirect(303, '/expert/code');
    render(res, 'code/kids-code', {
      title: work.problem.title,
      back: auth.role === 'child' ? '/kids/code' : `/expert/code/classes/${work.cls.class_id}`,
      data: { 'problem-id': String(work.problem.problem_id), 'child-id': work.caller.childId ?? '', preview: auth.role === 'child' ? '0' : '1' },
    });
  });

  app.get('/expert/code', (req, res) => {
    if (currentAuth(req).role !== 'expert') return res.redirect(303, '/expert');
    render(res, 'code/expert-classes', { title: 'Code classes', data: {} });
  });

  app.get('/expert/code/classes/:class_id', async (req, res) => {
    const auth = currentAuth(req);
    if (auth.role !== 'expert') return res.redirect(303, '/expert');
    const cls = await allowed(() => assertOwnClass(db, auth, pageId(req.params.class_id)));
    if (!cls) return res.redirect(303, '/expert/code');
    render(res, 'code/expert-class', { title: cls.name, data: { 'class-id': String(cls.class_id) } });
  });
}

/** Path ids are positive integers; anything else finds nothing (404 page, never a lookup). */
function pageId(raw: unknown): number {
  if (typeof raw !== 'string' || !/^[1-9]\d{0,9}$/.test(raw)) return -1;
  return Number(raw);
}

/** The value, or null when the access check refused (a page redirects instead of showing JSON). */
async function allowed<T>(check: () => Promise<T>): Promise<T | null> {
  try {
    return await check();
  } catch (err) {
    if (err instanceof AppError && (err.status === 403 || err.status === 404)) return null;
    throw err;
  }
}

function render(res: Response, view: string, locals: Record<string, unknown>): void {
  // pages depend on who is logged in: a shared tablet's cache must not show them to the next child
  res.setHeader('Cache-Control', 'no-store');
  res.render(view, { back: '', ...locals });
}
