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
      .allSync<ExpertRow & { child_count: number; parent_count: number }>(
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
    const row = this.db.firstSync<ExpertRow>('SELECT * FROM experts WHERE id = ?', [id]);
    return row && toExpert(row);
  }

  insert(id: string, displayName: string): void {
    this.db.runSync('INSERT INTO experts (id, display_name) VALUES (?, ?)', [id, displayName]);
  }

  update(id: string, fields: { display_name?: string; active?: boolean }): void {
    if (fields.display_name !== undefined) this.db.runSync('UPDATE experts SET display_name = ? WHERE id = ?', [fields.display_name, id]);
    if (fields.active !== undefined) this.db.runSync('UPDATE experts SET active = ? WHERE id = ?', [fields.active ? 1 : 0, id]);
    this.db.runSync("UPDATE experts SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?", [id]);
  }

  delete(id: string): boolean {
    return this.db.runSync('DELETE FROM experts WHERE id = ?', [id]).changes > 0;
  }

  /** What deleting the expert would take with it: their children and those children's attempts. */
  holdings(id: string): { children: number; attempts: number } {
    return this.db.firstSync<{ children: number; attempts: number }>(
      `SELECT (SELECT count(*) FROM children WHERE expert_id = ?) AS children,
              (SELECT count(*) FROM quiz_attempts a JOIN children c ON c.id = a.child_id WHERE c.expert_id = ?) AS attempts`,
      [id, id],
    )!;
  }

  /**
   * Hands everything of `from` that children depend on to `to`: the families (their codes keep
   * working; they become further parents of `to`, whose default family stays the default), the
   * children (with their attempts and checkpoints, which hang off the child), and the videos
   * assigned to or claimed by `from`, so the children keep their library. Run in a transaction.
   */
  transfer(from: string, to: string): { parents: number; children: number; videos: number } {
    const parents = this.db.runSync('UPDATE parents SET expert_id = ?, is_default = 0 WHERE expert_id = ?', [to, from]).changes;
    const children = this.db.runSync(
      "UPDATE children SET expert_id = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE expert_id = ?", [to, from]).changes;
    const assigned = this.db.runSync(
      'INSERT INTO video_assignments (video_id, expert_id) SELECT video_id, ? FROM video_assignments WHERE expert_id = ? ON CONFLICT DO NOTHING', [to, from]).changes;
    const claimed = this.db.runSync('UPDATE video_claims SET expert_id = ? WHERE expert_id = ?', [to, from]).changes;
    return { parents, children, videos: assigned + claimed };
  }

  count(): number {
    return this.db.firstSync<{ n: number }>('SELECT count(*) AS n FROM experts')!.n;
  }
}
