import crypto from 'node:crypto';
import type { Database } from '../db/database.js';

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
  constructor(private readonly db: Database) {}

  async listForExpert(expertId: string): Promise<(Parent & { child_count: number })[]> {
    const rows = await this.db.all<ParentRow & { child_count: number }>(
      `SELECT p.*, (SELECT count(*) FROM children c WHERE c.parent_id = p.id) AS child_count
       FROM parents p WHERE p.expert_id = ? ORDER BY p.is_default DESC, lower(p.display_name), p.id`,
      [expertId],
    );
    return rows.map((r) => ({ ...toParent(r), child_count: Number(r.child_count) }));
  }

  async get(id: string): Promise<Parent | undefined> {
    const row = await this.db.first<ParentRow>('SELECT * FROM parents WHERE id = ?', [id]);
    return row && toParent(row);
  }

  async defaultFor(expertId: string): Promise<Parent | undefined> {
    const row = await this.db.first<ParentRow>('SELECT * FROM parents WHERE expert_id = ? AND is_default = 1', [expertId]);
    return row && toParent(row);
  }

  async insert(expertId: string, displayName: string, isDefault: boolean): Promise<Parent> {
    const id = `p_${crypto.randomBytes(8).toString('hex').slice(0, 10)}`;
    await this.db.run('INSERT INTO parents (id, expert_id, display_name, is_default, created_at) VALUES (?, ?, ?, ?, ?)', [
      id,
      expertId,
      displayName,
      isDefault ? 1 : 0,
      new Date().toISOString(),
    ]);
    return (await this.get(id))!;
  }

  async idsForExpert(expertId: string): Promise<string[]> {
    return (await this.db.all<{ id: string }>('SELECT id FROM parents WHERE expert_id = ? ORDER BY id', [expertId])).map((r) => r.id);
  }
}
