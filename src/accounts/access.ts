import type { Db } from '../db/database.js';
import type { Auth } from '../http/session.js';
import { forbidden, notFound } from '../http/errors.js';

export interface ChildAccessRow {
  id: string;
  expert_id: string;
  parent_id: string | null;
  active: number;
}

/**
 * Who may act on a child's data. Admin: every child. Expert: the children they own.
 * Child session: the active children linked to the parent whose code opened the session.
 * 404 when the child does not exist, 403 when it is someone else's.
 */
export function assertChildAccess(db: Db, auth: Auth, childId: string): ChildAccessRow {
  const child = db.firstSync<ChildAccessRow>('SELECT id, expert_id, parent_id, active FROM children WHERE id = ?', [childId]);
  if (!child) throw notFound(`Child ${childId} was not found.`, 'child_not_found');
  if (!canActOnChild(auth, child)) throw forbidden('This child profile is not in your family.', 'child_not_yours');
  return child;
}

export function canActOnChild(auth: Auth, child: ChildAccessRow): boolean {
  switch (auth.role) {
    case 'admin':
      return true;
    case 'expert':
      return child.expert_id === auth.expertId;
    case 'child':
      return child.parent_id === auth.parentId && child.active === 1;
    default:
      return false;
  }
}
