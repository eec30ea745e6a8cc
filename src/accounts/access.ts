import type { Database } from '../db/database.js';
import type { Auth } from '../http/session.js';
import { forbidden, notFound } from '../http/errors.js';
import { ChildrenRepository, type ChildAccessRow } from './children.repository.js';

export type { ChildAccessRow };

/**
 * Who may act on a child's data. Admin: every child. Expert: the children they own.
 * Child session: the active children linked to the parent whose code opened the session.
 * 404 when the child does not exist, 403 when it is someone else's. `db` may be a transaction.
 */
export async function assertChildAccess(db: Database, auth: Auth, childId: string): Promise<ChildAccessRow> {
  const child = await new ChildrenRepository(db).accessRow(childId);
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
