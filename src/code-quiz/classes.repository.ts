import type { Database } from '../db/database.js';

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

/** Classes and their enrolments. */
export class ClassesRepository {
  constructor(private readonly db: Database) {}

  async get(id: number): Promise<CodeClass | undefined> {
    const r = await this.db.first<ClassRow>('SELECT * FROM classes WHERE id = ?', [id]);
    return r && toClass(r);
  }

  /** every class of an expert, or every class (admin) */
  async list(expertId?: string): Promise<CodeClass[]> {
    const rows = expertId
      ? await this.db.all<ClassRow>('SELECT * FROM classes WHERE expert_id = ? ORDER BY name, id', [expertId])
      : await this.db.all<ClassRow>('SELECT * FROM classes ORDER BY expert_id, name, id');
    return rows.map(toClass);
  }

  async create(expertId: string, name: string, description: string): Promise<CodeClass> {
    const row = await this.db.first<{ id: number }>('INSERT INTO classes (expert_id, name, description) VALUES (?, ?, ?) RETURNING id', [
      expertId,
      name,
      description,
    ]);
    return (await this.get(Number(row!.id)))!;
  }

  async update(id: number, fields: { name?: string; description?: string }): Promise<CodeClass> {
    await this.db.run(
      `UPDATE classes SET name = COALESCE(@name, name), description = COALESCE(@description, description), updated_at = @now WHERE id = @id`,
      { id, name: fields.name ?? null, description: fields.description ?? null, now: new Date().toISOString() },
    );
    return (await this.get(id))!;
  }

  async delete(id: number): Promise<boolean> {
    return (await this.db.run('DELETE FROM classes WHERE id = ?', [id])).changes > 0;
  }

  async enrolled(classId: number): Promise<EnrolledChild[]> {
    const rows = await this.db.all<{ id: string; first_name: string; last_name: string; icon_key: string; active: number; created_at: string }>(
      `SELECT c.id, c.first_name, c.last_name, c.icon_key, c.active, e.created_at
         FROM class_enrolments e JOIN children c ON c.id = e.child_id
        WHERE e.class_id = ? ORDER BY c.first_name, c.id`,
      [classId],
    );
    return rows.map((r) => ({ child_id: r.id, first_name: r.first_name, last_name: r.last_name, icon_key: r.icon_key, active: r.active === 1, enrolled_at: r.created_at }));
  }

  async enrolmentCounts(classIds: number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    for (let i = 0; i < classIds.length; i += 500) {
      const chunk = classIds.slice(i, i + 500);
      const rows = await this.db.all<{ class_id: number; n: number }>(
        `SELECT class_id, count(*) AS n FROM class_enrolments WHERE class_id IN (${chunk.map(() => '?').join(', ')}) GROUP BY class_id`,
        chunk,
      );
      for (const r of rows) counts.set(r.class_id, Number(r.n));
    }
    return counts;
  }

  /** true when newly enrolled, false when the child already was */
  async enrol(classId: number, childId: string): Promise<boolean> {
    const r = await this.db.run('INSERT INTO class_enrolments (class_id, child_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [classId, childId]);
    return r.changes > 0;
  }

  /** Enrols every active child of the class's expert (the demo class); returns how many were new. */
  async enrolActiveChildrenOf(classId: number, expertId: string): Promise<number> {
    const r = await this.db.run(
      `INSERT INTO class_enrolments (class_id, child_id) SELECT CAST(? AS INTEGER), id FROM children WHERE expert_id = ? AND active = 1
       ON CONFLICT DO NOTHING`,
      [classId, expertId],
    );
    return r.changes;
  }

  async unenrol(classId: number, childId: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM class_enrolments WHERE class_id = ? AND child_id = ?', [classId, childId])).changes > 0;
  }

  async isEnrolled(classId: number, childId: string): Promise<boolean> {
    return (await this.db.first('SELECT 1 AS found FROM class_enrolments WHERE class_id = ? AND child_id = ?', [classId, childId])) !== undefined;
  }

  async classIdsOfChild(childId: string): Promise<number[]> {
    const rows = await this.db.all<{ class_id: number }>('SELECT class_id FROM class_enrolments WHERE child_id = ? ORDER BY class_id', [childId]);
    return rows.map((r) => r.class_id);
  }

  /** Whether the demo family's class was made (it is made once, even if deleted since). */
  async demoClassMade(): Promise<boolean> {
    return (await this.db.first('SELECT 1 AS found FROM code_quiz_demo WHERE id = 1')) !== undefined;
  }

  async markDemoClass(classId: number): Promise<void> {
    await this.db.run('INSERT INTO code_quiz_demo (id, class_id) VALUES (1, ?)', [classId]);
  }
}
