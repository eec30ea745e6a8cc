import type { Database } from '../db/database.js';

/** Who called: exactly what the activity tables record about the caller. */
export interface Caller {
  role: 'child' | 'expert' | 'admin';
  childId: string | null;
  expertId: string | null;
}

export interface NewSuggestionEvent {
  caller: Caller;
  classId: number;
  problemId: number;
  language: string;
  codeSha256: string;
  cursorLine: number;
  cursorColumn: number;
  generator: string;
  model: string | null;
  suggestion: string;
  distractors: string[];
  explanation: string;
  latencyMs: number;
}

export interface SuggestionEventRow {
  id: number;
  child_id: string | null;
  expert_id: string | null;
  caller_role: string;
  class_id: number;
  problem_id: number;
  language: string;
  code_sha256: string;
  cursor_line: number;
  cursor_column: number;
  generator: string;
  model: string | null;
  suggestion: string;
  distractors_json: string;
  explanation: string;
  latency_ms: number;
  choice: string | null;
  choice_correct: number | null;
  choice_distractor: number | null;
  answered_at: string | null;
  created_at: string;
}

export interface NewRun {
  caller: Caller;
  classId: number | null;
  problemId: number | null;
  language: string;
  codeSha256: string;
  passed: number;
  total: number;
  status: 'passed' | 'failed' | 'error' | 'timed_out';
  runtimeMs: number;
}

export interface RunRow {
  id: number;
  child_id: string | null;
  expert_id: string | null;
  caller_role: string;
  class_id: number | null;
  problem_id: number | null;
  language: string;
  code_sha256: string;
  passed: number;
  total: number;
  status: string;
  runtime_ms: number;
  created_at: string;
}

/** suggestion_events and runs: what children (and teachers trying things) did. */
export class ActivityRepository {
  constructor(private readonly db: Database) {}

  async addSuggestionEvent(e: NewSuggestionEvent): Promise<number> {
    const row = await this.db.first<{ id: number }>(
      `INSERT INTO suggestion_events (child_id, expert_id, caller_role, class_id, problem_id, language, code_sha256, cursor_line,
         cursor_column, generator, model, suggestion, distractors_json, explanation, latency_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [
        e.caller.childId,
        e.caller.expertId,
        e.caller.role,
        e.classId,
        e.problemId,
        e.language,
        e.codeSha256,
        e.cursorLine,
        e.cursorColumn,
        e.generator,
        e.model,
        e.suggestion,
        JSON.stringify(e.distractors),
        e.explanation,
        e.latencyMs,
      ],
    );
    return Number(row!.id);
  }

  async suggestionEvent(id: number): Promise<SuggestionEventRow | undefined> {
    return this.db.first<SuggestionEventRow>('SELECT * FROM suggestion_events WHERE id = ?', [id]);
  }

  /** Records the pick once; false when the event was already answered (the first pick counts). */
  async answer(id: number, choice: string, correct: boolean, distractorIndex: number | null): Promise<boolean> {
    const r = await this.db.run(
      'UPDATE suggestion_events SET choice = ?, choice_correct = ?, choice_distractor = ?, answered_at = ? WHERE id = ? AND answered_at IS NULL',
      [choice, correct ? 1 : 0, distractorIndex, new Date().toISOString(), id],
    );
    return r.changes > 0;
  }

  async suggestionEvents(classId: number, limit: number): Promise<SuggestionEventRow[]> {
    return this.db.all<SuggestionEventRow>('SELECT * FROM suggestion_events WHERE class_id = ? ORDER BY id DESC LIMIT ?', [classId, limit]);
  }

  async addRun(r: NewRun): Promise<number> {
    const row = await this.db.first<{ id: number }>(
      `INSERT INTO runs (child_id, expert_id, caller_role, class_id, problem_id, language, code_sha256, passed, total, status, runtime_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [r.caller.childId, r.caller.expertId, r.caller.role, r.classId, r.problemId, r.language, r.codeSha256, r.passed, r.total, r.status, r.runtimeMs],
    );
    return Number(row!.id);
  }

  async runs(classId: number, limit: number): Promise<RunRow[]> {
    return this.db.all<RunRow>('SELECT * FROM runs WHERE class_id = ? ORDER BY id DESC LIMIT ?', [classId, limit]);
  }

  /** Per problem of one child: whether a run passed every stored test, runs and hints so far. */
  async childProgress(childId: string): Promise<Map<number, { solved: boolean; runs: number; hints: number; last_activity: string | null }>> {
    const out = new Map<number, { solved: boolean; runs: number; hints: number; last_activity: string | null }>();
    const runs = await this.db.all<{ problem_id: number; runs: number; solved: number; last: string }>(
      `SELECT problem_id, count(*) AS runs, MAX(CASE WHEN status = 'passed' AND total > 0 THEN 1 ELSE 0 END) AS solved, MAX(created_at) AS last
         FROM runs WHERE child_id = ? AND problem_id IS NOT NULL GROUP BY problem_id`,
      [childId],
    );
    for (const r of runs) out.set(r.problem_id, { solved: Number(r.solved) === 1, runs: Number(r.runs), hints: 0, last_activity: r.last });
    const hints = await this.db.all<{ problem_id: number; hints: number; last: string }>(
      'SELECT problem_id, count(*) AS hints, max(created_at) AS last FROM suggestion_events WHERE child_id = ? GROUP BY problem_id',
      [childId],
    );
    for (const h of hints) {
      const p = out.get(h.problem_id) ?? { solved: false, runs: 0, hints: 0, last_activity: null };
      p.hints = Number(h.hints);
      p.last_activity = p.last_activity && p.last_activity > h.last ? p.last_activity : h.last;
      out.set(h.problem_id, p);
    }
    return out;
  }
}
