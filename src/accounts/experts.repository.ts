import type { Db } from '../db/database.js';

export interface Expert {
  expert_id: string;
  display_name: string;
  active: boolean;
  created_at: string;
  updated_at: string;
}

interface ExpertRow {
  id: string;
  display_name: string;
  active: number;
  created_at: string;
  updated_at: string;
}

const toExpert = (r: ExpertRow): Expert => ({
  expert_id: r.id,
  display_name: r.display_name,
  active: r.active === 1,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export class ExpertsRepository {
  constructor(private readonly db: Db) {}

  list(): (Expert & { child_count: number; parent_count: number })[] {
    return this.db
      .all<ExpertRow & { child_count: number; parent_count: number }>(
        `SELECT e.*, (SELECT count(*) FROM children c WHERE c.expert_id = e.id) AS child_count,
                (SELECT count(*) FROM parents p WHERE p.expert_id = e.id) AS parent_count
         FROM experts e ORDER BY e.display_name COLLATE NOCASE, e.id`,
      )
      .map((r) => ({ ...toExpert(r), child_count: r.child_count, parent_count: r.parent_count }));
  }

  /**
   * The expert drop-down list of the original service's admin page (`experts` in
   * GET /api/admin/videos/assignments and GET /api/admin/children): the rows of list().
   */
  options(): { expert_id: string; display_name: string; is_active: boolean }[] {
    return this.list().map((e) => ({ expert_id: e.expert_id, display_name: e.display_name, is_active: e.active }));
  }

  get(id: string): Expert | undefined {
    const row = this.db.first<ExpertRow>('SELECT * FROM experts WHERE id = ?', [id]);
    return row && toExpert(row);
  }

  insert(id: string, displayName: string): void {
    this.db.run('INSERT INTO experts (id, display_name) VALUES (?, ?)', [id, displayName]);
  }

  update(id: string, fields: { display_name?: string; active?: boolean }): void {
    if (fields.display_name !== undefined) this.db.run('UPDATE experts SET display_name = ? WHERE id = ?', [fields.display_name, id]);
    if (fields.active !== undefined) this.db.run('UPDATE experts SET active = ? WHERE id = ?', [fields.active ? 1 : 0, id]);
    this.db.run("UPDATE experts SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?", [id]);
  }

  delete(id: string): boolean {
    return this.db.run('DELETE FROM experts WHERE id = ?', [id]).changes > 0;
  }

  count(): number {
    return this.db.first<{ n: number }>('SELECT count(*) AS n FROM experts')!.n;
  }
}
