import type { Database } from '../db/database.js';
import type { CodeLanguage } from './code-quiz.schema.js';
import type { HintLine } from './hints.service.js';

export interface ProblemTest {
  stdin: string;
  expected_stdout: string;
  hidden: boolean;
}

export interface Problem {
  problem_id: number;
  class_id: number;
  title: string;
  prompt: string;
  language: CodeLanguage;
  starter_code: string;
  solution: string;
  tests: ProblemTest[];
  hints: HintLine[];
  created_at: string;
  updated_at: string;
}

export interface ProblemFields {
  title: string;
  prompt: string;
  language: CodeLanguage;
  starter_code: string;
  solution: string;
  tests: ProblemTest[];
  hints: HintLine[];
}

interface ProblemRow {
  id: number;
  class_id: number;
  title: string;
  prompt: string;
  language: CodeLanguage;
  starter_code: string;
  solution: string;
  hints_json: string;
  created_at: string;
  updated_at: string;
}

/** Problems and their test cases; a problem and its tests are always written together. */
export class ProblemsRepository {
  constructor(private readonly db: Database) {}

  async get(id: number): Promise<Problem | undefined> {
    const r = await this.db.first<ProblemRow>('SELECT * FROM code_problems WHERE id = ?', [id]);
    return r && this.toProblem(r);
  }

  async listByClasses(classIds: number[]): Promise<Problem[]> {
    const out: Problem[] = [];
    // chunks stay below the engines' bound-parameter limits
    for (let i = 0; i < classIds.length; i += 500) {
      const chunk = classIds.slice(i, i + 500);
      const rows = await this.db.all<ProblemRow>(
        `SELECT * FROM code_problems WHERE class_id IN (${chunk.map(() => '?').join(', ')}) ORDER BY class_id, id`,
        chunk,
      );
      for (const r of rows) out.push(await this.toProblem(r));
    }
    return out.sort((a, b) => a.class_id - b.class_id || a.problem_id - b.problem_id);
  }

  async count(classId: number): Promise<number> {
    const row = await this.db.first<{ n: number }>('SELECT count(*) AS n FROM code_problems WHERE class_id = ?', [classId]);
    return Number(row?.n ?? 0);
  }

  async create(classId: number, f: ProblemFields): Promise<Problem> {
    return this.db.transaction(async (tx) => {
      const row = await tx.first<{ id: number }>(
        `INSERT INTO code_problems (class_id, title, prompt, language, starter_code, solution, hints_json)
         VALUES (@class_id, @title, @prompt, @language, @starter_code, @solution, @hints_json) RETURNING id`,
        { class_id: classId, ...this.columns(f) },
      );
      const repo = new ProblemsRepository(tx);
      await repo.writeTests(Number(row!.id), f.tests);
      return (await repo.get(Number(row!.id)))!;
    });
  }

  async update(id: number, f: ProblemFields): Promise<Problem> {
    return this.db.transaction(async (tx) => {
      await tx.run(
        `UPDATE code_problems SET title = @title, prompt = @prompt, language = @language, starter_code = @starter_code,
           solution = @solution, hints_json = @hints_json, updated_at = @now WHERE id = @id`,
        { id, ...this.columns(f), now: new Date().toISOString() },
      );
      await tx.run('DELETE FROM code_problem_tests WHERE problem_id = ?', [id]);
      const repo = new ProblemsRepository(tx);
      await repo.writeTests(id, f.tests);
      return (await repo.get(id))!;
    });
  }

  async delete(id: number): Promise<boolean> {
    return (await this.db.run('DELETE FROM code_problems WHERE id = ?', [id])).changes > 0;
  }

  private columns(f: ProblemFields) {
    return {
      title: f.title,
      prompt: f.prompt,
      language: f.language,
      starter_code: f.starter_code,
      solution: f.solution,
      hints_json: JSON.stringify(f.hints),
    };
  }

  private async writeTests(problemId: number, tests: ProblemTest[]): Promise<void> {
    for (const [i, t] of tests.entries()) {
      await this.db.run('INSERT INTO code_problem_tests (problem_id, position, stdin, expected_stdout, hidden) VALUES (?, ?, ?, ?, ?)', [
        problemId,
        i + 1,
        t.stdin,
        t.expected_stdout,
        t.hidden ? 1 : 0,
      ]);
    }
  }

  private async toProblem(r: ProblemRow): Promise<Problem> {
    const tests = (
      await this.db.all<{ stdin: string; expected_stdout: string; hidden: number }>(
        'SELECT stdin, expected_stdout, hidden FROM code_problem_tests WHERE problem_id = ? ORDER BY position',
        [r.id],
      )
    ).map((t) => ({ stdin: t.stdin, expected_stdout: t.expected_stdout, hidden: t.hidden === 1 }));
    return {
      problem_id: r.id,
      class_id: r.class_id,
      title: r.title,
      prompt: r.prompt,
      language: r.language,
      starter_code: r.starter_code,
      solution: r.solution,
      tests,
      hints: JSON.parse(r.hints_json) as HintLine[],
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  }
}
