import crypto from 'node:crypto';
import type { Db } from '../db/database.js';

export interface Parent {
  parent_id: string;
  expert_id: string;
  display_name: string;
  is_default: boolean;
  created_at: string;
}

interface ParentRow {
  id: string;
  expert_id: string;
  display_name: string;
  is_default: number;
  created_at: string;
}

const toParent = (r: ParentRow): Parent => ({
  parent_id: r.id,
  expert_id: r.expert_id,
  display_name: r.display_name,
  is_default: r.is_default === 1,
  created_at: r.created_at,
});

export class ParentsRepository {
  constructor(private readonly db: Db) {}

  listForExpert(expertId: string): (Parent & { child_count: number })[] {
    return this.db
      .allSync<ParentRow & { child_count: number }>(
        `SELECT p.*, (SELECT count(*) FROM children c WHERE c.parent_id = p.id) AS child_count
         FROM parents p WHERE p.expert_id = ? ORDER BY p.is_default DESC, p.display_name COLLATE NOCASE`,
        [expertId],
      )
      .map((r) => ({ ...toParent(r), child_count: r.child_count }));
  }

  get(id: string): Parent | undefined {
    const row = this.db.firstSync<ParentRow>('SELECT * FROM parents WHERE id = ?', [id]);
    return row && toParent(row);
  }

  defaultFor(expertId: string): Parent | undefined {
    const row = this.db.firstSync<ParentRow>('SELECT * FROM parents WHERE expert_id = ? AND is_default = 1', [expertId]);
    return row && toParent(row);
  }

  insert(expertId: string, displayName: string, isDefault: boolean): Parent {
    const id = `p_${crypto.randomBytes(8).toString('hex').slice(0, 10)}`;
    this.db.runSync('INSERT INTO parents (id, expert_id, display_name, is_default) VALUES (?, ?, ?, ?)', [
      id,
      expertId,
      displayName,
      isDefault ? 1 : 0,
    ]);
    return this.get(id)!;
  }

  idsForExpert(expertId: string): string[] {
    return this.db.allSync<{ id: string }>('SELECT id FROM parents WHERE expert_id = ?', [expertId]).map((r) => r.id);
  }
}
