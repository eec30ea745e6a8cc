import crypto from 'node:crypto';
import type { Db } from '../db/database.js';

export type InteractionMode = 'strict' | 'flexible' | 'passive';

export interface Child {
  child_id: string;
  expert_id: string;
  parent_id: string | null;
  first_name: string;
  last_name: string;
  icon_key: string;
  interaction_mode: InteractionMode;
  active: boolean;
  created_at: string;
  updated_at: string;
}

interface ChildRow {
  id: string;
  expert_id: string;
  parent_id: string | null;
  first_name: string;
  last_name: string;
  icon_key: string;
  interaction_mode: InteractionMode;
  active: number;
  created_at: string;
  updated_at: string;
}

export interface ChildFields {
  first_name?: string;
  last_name?: string;
  icon_key?: string;
  interaction_mode?: InteractionMode;
  parent_id?: string | null;
  expert_id?: string;
  active?: boolean;
}

const toChild = (r: ChildRow): Child => ({
  child_id: r.id,
  expert_id: r.expert_id,
  parent_id: r.parent_id,
  first_name: r.first_name,
  last_name: r.last_name,
  icon_key: r.icon_key,
  interaction_mode: r.interaction_mode,
  active: r.active === 1,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const COLUMNS: (keyof ChildFields)[] = ['first_name', 'last_name', 'icon_key', 'interaction_mode', 'parent_id', 'expert_id', 'active'];

export class ChildrenRepository {
  constructor(private readonly db: Db) {}

  list(filter: { expertId?: string; parentId?: string; includeInactive: boolean }): Child[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.expertId) {
      where.push('expert_id = ?');
      params.push(filter.expertId);
    }
    if (filter.parentId) {
      where.push('parent_id = ?');
      params.push(filter.parentId);
    }
    if (!filter.includeInactive) where.push('active = 1');
    const sql = `SELECT * FROM children ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
                 ORDER BY first_name COLLATE NOCASE, last_name COLLATE NOCASE, id`;
    return this.db.allSync<ChildRow>(sql, params).map(toChild);
  }

  get(id: string): Child | undefined {
    const row = this.db.firstSync<ChildRow>('SELECT * FROM children WHERE id = ?', [id]);
    return row && toChild(row);
  }

  /** Inserts with a fresh random 6-digit id. */
  insert(fields: Required<Pick<ChildFields, 'first_name' | 'expert_id'>> & ChildFields): Child {
    let id: string;
    do id = crypto.randomInt(100000, 1000000).toString();
    while (this.db.firstSync('SELECT 1 FROM children WHERE id = ?', [id]));
    this.db.runSync(
      `INSERT INTO children (id, expert_id, parent_id, first_name, last_name, icon_key, interaction_mode)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [id, fields.expert_id, fields.parent_id ?? null, fields.first_name, fields.last_name ?? '', fields.icon_key ?? 'star', fields.interaction_mode ?? 'flexible'],
    );
    return this.get(id)!;
  }

  update(id: string, fields: ChildFields): void {
    for (const col of COLUMNS) {
      const value = fields[col];
      if (value === undefined) continue;
      // column names come from the fixed list above, never from input
      this.db.runSync(`UPDATE children SET ${col} = ? WHERE id = ?`, [typeof value === 'boolean' ? (value ? 1 : 0) : value, id]);
    }
    this.db.runSync("UPDATE children SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?", [id]);
  }

  delete(id: string): boolean {
    return this.db.runSync('DELETE FROM children WHERE id = ?', [id]).changes > 0;
  }
}
