import type { Db } from '../db/database.js';
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

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** Problems and their test cases; a problem and its tests are always written together. */
export class ProblemsRepository {
  constructor(private readonly db: Db) {}

  get(id: number): Problem | undefined {
    const r = this.db.firstSync<ProblemRow>('SELECT * FROM code_problems WHERE id = ?', [id]);
    return r && this.toProblem(r);
  }

  listByClasses(classIds: number[]): Problem[] {
    if (classIds.length === 0) return [];
    return this.db
      .allSync<ProblemRow>('SELECT * FROM code_problems WHERE class_id IN (SELECT value FROM json_each(?)) ORDER BY class_id, id', [JSON.stringify(classIds)])
      .map((r) => this.toProblem(r));
  }

  count(classId: number): number {
    return this.db.firstSync<{ n: number }>('SELECT count(*) AS n FROM code_problems WHERE class_id = ?', [classId])!.n;
  }

  create(classId: number, f: ProblemFields): Problem {
    return this.db.transactionSync(() => {
      const { lastInsertRowid } = this.db.runSync(
        `INSERT INTO code_problems (class_id, title, prompt, language, starter_code, solution, hints_json)
         VALUES (@class_id, @title, @prompt, @language, @starter_code, @solution, @hints_json)`,
        { class_id: classId, ...this.columns(f) },
      );
      const id = Number(lastInsertRowid);
      this.writeTests(id, f.tests);
      return this.get(id)!;
    });
  }

  update(id: number, f: ProblemFields): Problem {
    return this.db.transactionSync(() => {
      this.db.runSync(
        `UPDATE code_problems SET title = @title, prompt = @prompt, language = @language, starter_code = @starter_code,
           solution = @solution, hints_json = @hints_json, updated_at = ${NOW} WHERE id = @id`,
        { id, ...this.columns(f) },
      );
      this.db.runSync('DELETE FROM code_problem_tests WHERE problem_id = ?', [id]);
      this.writeTests(id, f.tests);
      return this.get(id)!;
    });
  }

  delete(id: number): boolean {
    return this.db.runSync('DELETE FROM code_problems WHERE id = ?', [id]).changes > 0;
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

  private writeTests(problemId: number, tests: ProblemTest[]): void {
    tests.forEach((t, i) =>
      this.db.runSync('INSERT INTO code_problem_tests (problem_id, position, stdin, expected_stdout, hidden) VALUES (?, ?, ?, ?, ?)', [
        problemId,
        i + 1,
        t.stdin,
        t.expected_stdout,
        t.hidden ? 1 : 0,
      ]),
    );
  }

  private toProblem(r: ProblemRow): Problem {
    const tests = this.db
      .allSync<{ stdin: string; expected_stdout: string; hidden: number }>('SELECT stdin, expected_stdout, hidden FROM code_problem_tests WHERE problem_id = ? ORDER BY position', [r.id])
      .map((t) => ({ stdin: t.stdin, expected_stdout: t.expected_stdout, hidden: t.hidden === 1 }));
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
