import type { Db } from '../db/database.js';

export interface CodeClass {
  class_id: number;
  expert_id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface EnrolledChild {
  child_id: string;
  first_name: string;
  last_name: string;
  icon_key: string;
  active: boolean;
  enrolled_at: string;
}

interface ClassRow {
  id: number;
  expert_id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

const toClass = (r: ClassRow): CodeClass => ({
  class_id: r.id,
  expert_id: r.expert_id,
  name: r.name,
  description: r.description,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** Classes and their enrolments. */
export class ClassesRepository {
  constructor(private readonly db: Db) {}

  get(id: number): CodeClass | undefined {
    const r = this.db.firstSync<ClassRow>('SELECT * FROM classes WHERE id = ?', [id]);
    return r && toClass(r);
  }

  /** every class of an expert, or every class (admin) */
  list(expertId?: string): CodeClass[] {
    const rows = expertId
      ? this.db.allSync<ClassRow>('SELECT * FROM classes WHERE expert_id = ? ORDER BY name, id', [expertId])
      : this.db.allSync<ClassRow>('SELECT * FROM classes ORDER BY expert_id, name, id');
    return rows.map(toClass);
  }

  create(expertId: string, name: string, description: string): CodeClass {
    const { lastInsertRowid } = this.db.runSync('INSERT INTO classes (expert_id, name, description) VALUES (?, ?, ?)', [expertId, name, description]);
    return this.get(Number(lastInsertRowid))!;
  }

  update(id: number, fields: { name?: string; description?: string }): CodeClass {
    this.db.runSync(
      `UPDATE classes SET name = coalesce(@name, name), description = coalesce(@description, description), updated_at = ${NOW} WHERE id = @id`,
      { id, name: fields.name ?? null, description: fields.description ?? null },
    );
    return this.get(id)!;
  }

  delete(id: number): boolean {
    return this.db.runSync('DELETE FROM classes WHERE id = ?', [id]).changes > 0;
  }

  enrolled(classId: number): EnrolledChild[] {
    return this.db
      .allSync<{ id: string; first_name: string; last_name: string; icon_key: string; active: number; created_at: string }>(
        `SELECT c.id, c.first_name, c.last_name, c.icon_key, c.active, e.created_at
           FROM class_enrolments e JOIN children c ON c.id = e.child_id
          WHERE e.class_id = ? ORDER BY c.first_name, c.id`,
        [classId],
      )
      .map((r) => ({ child_id: r.id, first_name: r.first_name, last_name: r.last_name, icon_key: r.icon_key, active: r.active === 1, enrolled_at: r.created_at }));
  }

  enrolmentCounts(classIds: number[]): Map<number, number> {
    const counts = new Map<number, number>();
    if (classIds.length === 0) return counts;
    const rows = this.db.allSync<{ class_id: number; n: number }>(
      `SELECT class_id, count(*) AS n FROM class_enrolments WHERE class_id IN (SELECT value FROM json_each(?)) GROUP BY class_id`,
      [JSON.stringify(classIds)],
    );
    for (const r of rows) counts.set(r.class_id, r.n);
    return counts;
  }

  /** true when newly enrolled, false when the child already was */
  enrol(classId: number, childId: string): boolean {
    return this.db.runSync('INSERT OR IGNORE INTO class_enrolments (class_id, child_id) VALUES (?, ?)', [classId, childId]).changes > 0;
  }

  unenrol(classId: number, childId: string): boolean {
    return this.db.runSync('DELETE FROM class_enrolments WHERE class_id = ? AND child_id = ?', [classId, childId]).changes > 0;
  }

  isEnrolled(classId: number, childId: string): boolean {
    return this.db.firstSync('SELECT 1 FROM class_enrolments WHERE class_id = ? AND child_id = ?', [classId, childId]) !== undefined;
  }

  classIdsOfChild(childId: string): number[] {
    return this.db.allSync<{ class_id: number }>('SELECT class_id FROM class_enrolments WHERE child_id = ? ORDER BY class_id', [childId]).map((r) => r.class_id);
  }
}
