import type { Request } from 'express';
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
  }
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
