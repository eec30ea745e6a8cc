import type { Database } from '../db/database.js';

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
  constructor(private readonly db: Database) {}

  async list(): Promise<(Expert & { child_count: number; parent_count: number })[]> {
    const rows = await this.db.all<ExpertRow & { child_count: number; parent_count: number }>(
      `SELECT e.*, (SELECT count(*) FROM children c WHERE c.expert_id = e.id) AS child_count,
              (SELECT count(*) FROM parents p WHERE p.expert_id = e.id) AS parent_count
       FROM experts e ORDER BY lower(e.display_name), e.id`,
    );
    return rows.map((r) => ({ ...toExpert(r), child_count: Number(r.child_count), parent_count: Number(r.parent_count) }));
  }

  /**
   * The expert drop-down list of the original service's admin page (`experts` in
   * GET /api/admin/videos/assignments and GET /api/admin/children): the rows of list().
   */
  async options(): Promise<{ expert_id: string; display_name: string; is_active: boolean }[]> {
    return (await this.list()).map((e) => ({ expert_id: e.expert_id, display_name: e.display_name, is_active: e.active }));
  }

  async get(id: string): Promise<Expert | undefined> {
    const row = await this.db.first<ExpertRow>('SELECT * FROM experts WHERE id = ?', [id]);
    return row && toExpert(row);
  }

  async exists(id: string): Promise<boolean> {
    return (await this.db.first('SELECT 1 AS one FROM experts WHERE id = ?', [id])) !== undefined;
  }

  async insert(id: string, displayName: string): Promise<void> {
    const now = new Date().toISOString();
    await this.db.run('INSERT INTO experts (id, display_name, created_at, updated_at) VALUES (?, ?, ?, ?)', [id, displayName, now, now]);
  }

  async update(id: string, fields: { display_name?: string; active?: boolean }): Promise<void> {
    if (fields.display_name !== undefined) await this.db.run('UPDATE experts SET display_name = ? WHERE id = ?', [fields.display_name, id]);
    if (fields.active !== undefined) await this.db.run('UPDATE experts SET active = ? WHERE id = ?', [fields.active ? 1 : 0, id]);
    await this.db.run('UPDATE experts SET updated_at = ? WHERE id = ?', [new Date().toISOString(), id]);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM experts WHERE id = ?', [id])).changes > 0;
  }

  /** What deleting the expert would take with it: their children and those children's attempts. */
  async holdings(id: string): Promise<{ children: number; attempts: number }> {
    const row = (await this.db.first<{ children: number; attempts: number }>(
      `SELECT (SELECT count(*) FROM children WHERE expert_id = ?) AS children,
              (SELECT count(*) FROM quiz_attempts a JOIN children c ON c.id = a.child_id WHERE c.expert_id = ?) AS attempts`,
      [id, id],
    ))!;
    return { children: Number(row.children), attempts: Number(row.attempts) };
  }

  /**
   * Hands everything of `from` that children depend on to `to`: the families (their codes keep
   * working; they become further parents of `to`, whose default family stays the default), the
   * children (with their attempts and checkpoints, which hang off the child), and the videos
   * assigned to or claimed by `from`, so the children keep their library. Run in a transaction
   * (build the repository on the transaction's handle).
   */
  async transfer(from: string, to: string): Promise<{ parents: number; children: number; videos: number }> {
    const parents = (await this.db.run('UPDATE parents SET expert_id = ?, is_default = 0 WHERE expert_id = ?', [to, from])).changes;
    const children = (await this.db.run('UPDATE children SET expert_id = ?, updated_at = ? WHERE expert_id = ?', [to, new Date().toISOString(), from])).changes;
    const assigned = (await this.db.run(
      'INSERT INTO video_assignments (video_id, expert_id) SELECT video_id, ? FROM video_assignments WHERE expert_id = ? ON CONFLICT DO NOTHING', [to, from])).changes;
    const claimed = (await this.db.run('UPDATE video_claims SET expert_id = ? WHERE expert_id = ?', [to, from])).changes;
    return { parents, children, videos: assigned + claimed };
  }

  async count(): Promise<number> {
    return Number((await this.db.first<{ n: number }>('SELECT count(*) AS n FROM experts'))!.n);
  }
}
