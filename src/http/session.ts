import type { Request, RequestHandler } from 'express';
import 'express-session';

export type Role = 'admin' | 'expert' | 'child';

declare module 'express-session' {
  interface SessionData {
    role: Role;
    /** expert sessions: the expert; child sessions: the expert who owns the family */
    expertId: string;
    /** child sessions: the parent whose code opened the session */
    parentId: string;
    /** child sessions: the profile the child picked */
    childId: string;
    companion: string;
    /** when the cookie's lifetime was last slid forward (see renewSessionCookie) */
    renewedAt: number;
  }
}

/**
 * The sliding lifetime, cheaply: re-signing and re-sending the cookie on every response (what
 * express-session's `rolling` did) cost about a third of its cost per logged-in API call in
 * bench/api.ts. Instead, a session whose cookie was last sent more than `everyMs` ago is marked
 * changed, so the session layer (session-layer.ts) saves it and sends a fresh cookie on that one
 * response. The cookie may therefore end up to `everyMs` before the row (whose expiry the store
 * slides the same way).
 */
export function renewSessionCookie(everyMs: number): RequestHandler {
  return (req, _res, next) => {
    const s = req.session;
    const expires = s?.role ? s.cookie.expires : undefined;
    if (s && expires && s.cookie.originalMaxAge && expires.getTime() - Date.now() < s.cookie.originalMaxAge - everyMs) s.renewedAt = Date.now();
    next();
  };
}

/** Who is asking, derived from the session only. */
export type Auth =
  | { role: 'anonymous' }
  | { role: 'admin' }
  | { role: 'expert'; expertId: string }
  | { role: 'child'; expertId: string; parentId: string; childId?: string };

export function currentAuth(req: Request): Auth {
  const s = req.session;
  if (!s) return { role: 'anonymous' };
  switch (s.role) {
    case 'admin':
      return { role: 'admin' };
    case 'expert':
      return s.expertId ? { role: 'expert', expertId: s.expertId } : { role: 'anonymous' };
    case 'child':
      return s.parentId && s.expertId
        ? { role: 'child', expertId: s.expertId, parentId: s.parentId, childId: s.childId }
        : { role: 'anonymous' };
    default:
      return { role: 'anonymous' };
  }
}

/**
 * One key per person behind a session, for per-person limits and the speech recognizer's
 * per-speaker state: the child profile on a tablet (the family before a profile is picked),
 * the expert, or the admin. Anonymous callers have none.
 */
export function principalKey(auth: Auth): string | undefined {
  switch (auth.role) {
    case 'child':
      return auth.childId ? `child:${auth.childId}` : `family:${auth.parentId}`;
    case 'expert':
      return `expert:${auth.expertId}`;
    case 'admin':
      return 'admin';
    default:
      return undefined;
  }
}

/** Starts a fresh session (new id, against fixation) holding only the given fields. */
export async function startSession(req: Request, fields: Partial<import('express-session').SessionData>): Promise<void> {
  await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
  Object.assign(req.session, fields);
  await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

export async function endSession(req: Request): Promise<void> {
  if (!req.session) return;
  await new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
}
