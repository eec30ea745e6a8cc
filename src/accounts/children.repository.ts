import crypto from 'node:crypto';
import type { Database } from '../db/database.js';

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

/** The columns access checks need (accounts/access.ts). */
export interface ChildAccessRow {
  id: string;
  expert_id: string;
  parent_id: string | null;
  active: number;
}

const COLUMNS: (keyof ChildFields)[] = ['first_name', 'last_name', 'icon_key', 'interaction_mode', 'parent_id', 'expert_id', 'active'];

export class ChildrenRepository {
  constructor(private readonly db: Database) {}

  async list(filter: { expertId?: string; parentId?: string; includeInactive: boolean }): Promise<Child[]> {
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
                 ORDER BY lower(first_name), lower(last_name), id`;
    return (await this.db.all<ChildRow>(sql, params)).map(toChild);
  }

  async get(id: string): Promise<Child | undefined> {
    const row = await this.db.first<ChildRow>('SELECT * FROM children WHERE id = ?', [id]);
    return row && toChild(row);
  }

  async accessRow(id: string): Promise<ChildAccessRow | undefined> {
    return this.db.first<ChildAccessRow>('SELECT id, expert_id, parent_id, active FROM children WHERE id = ?', [id]);
  }

  /** Inserts with a fresh random 6-digit id. */
  async insert(fields: Required<Pick<ChildFields, 'first_name' | 'expert_id'>> & ChildFields): Promise<Child> {
    let id: string;
    do id = crypto.randomInt(100000, 1000000).toString();
    while (await this.db.first('SELECT 1 AS one FROM children WHERE id = ?', [id]));
    const now = new Date().toISOString();
    await this.db.run(
      `INSERT INTO children (id, expert_id, parent_id, first_name, last_name, icon_key, interaction_mode, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [id, fields.expert_id, fields.parent_id ?? null, fields.first_name, fields.last_name ?? '', fields.icon_key ?? 'star', fields.interaction_mode ?? 'flexible', now, now],
    );
    return (await this.get(id))!;
  }

  async update(id: string, fields: ChildFields): Promise<void> {
    for (const col of COLUMNS) {
      const value = fields[col];
      if (value === undefined) continue;
      // column names come from the fixed list above, never from input
      await this.db.run(`UPDATE children SET ${col} = ? WHERE id = ?`, [typeof value === 'boolean' ? (value ? 1 : 0) : value, id]);
    }
    await this.db.run('UPDATE children SET updated_at = ? WHERE id = ?', [new Date().toISOString(), id]);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM children WHERE id = ?', [id])).changes > 0;
  }
}
