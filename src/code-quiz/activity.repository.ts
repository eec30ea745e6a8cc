import type { Db } from '../db/database.js';

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

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** suggestion_events and runs: what children (and teachers trying things) did. */
export class ActivityRepository {
  constructor(private readonly db: Db) {}

  addSuggestionEvent(e: NewSuggestionEvent): number {
    const { lastInsertRowid } = this.db.runSync(
      `INSERT INTO suggestion_events (child_id, expert_id, caller_role, class_id, problem_id, language, code_sha256, cursor_line,
         cursor_column, generator, model, suggestion, distractors_json, explanation, latency_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
    return Number(lastInsertRowid);
  }

  suggestionEvent(id: number): SuggestionEventRow | undefined {
    return this.db.firstSync<SuggestionEventRow>('SELECT * FROM suggestion_events WHERE id = ?', [id]);
  }

  /** Records the pick once; false when the event was already answered (the first pick counts). */
  answer(id: number, choice: string, correct: boolean, distractorIndex: number | null): boolean {
    return (
      this.db.runSync(
        `UPDATE suggestion_events SET choice = ?, choice_correct = ?, choice_distractor = ?, answered_at = ${NOW} WHERE id = ? AND answered_at IS NULL`,
        [choice, correct ? 1 : 0, distractorIndex, id],
      ).changes > 0
    );
  }

  suggestionEvents(classId: number, limit: number): SuggestionEventRow[] {
    return this.db.allSync<SuggestionEventRow>('SELECT * FROM suggestion_events WHERE class_id = ? ORDER BY id DESC LIMIT ?', [classId, limit]);
  }

  addRun(r: NewRun): number {
    const { lastInsertRowid } = this.db.runSync(
      `INSERT INTO runs (child_id, expert_id, caller_role, class_id, problem_id, language, code_sha256, passed, total, status, runtime_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.caller.childId, r.caller.expertId, r.caller.role, r.classId, r.problemId, r.language, r.codeSha256, r.passed, r.total, r.status, r.runtimeMs],
    );
    return Number(lastInsertRowid);
  }

  runs(classId: number, limit: number): RunRow[] {
    return this.db.allSync<RunRow>('SELECT * FROM runs WHERE class_id = ? ORDER BY id DESC LIMIT ?', [classId, limit]);
  }

  /** Per problem of one child: whether a run passed every stored test, runs and hints so far. */
  childProgress(childId: string): Map<number, { solved: boolean; runs: number; hints: number; last_activity: string | null }> {
    const out = new Map<number, { solved: boolean; runs: number; hints: number; last_activity: string | null }>();
    const runs = this.db.allSync<{ problem_id: number; runs: number; solved: number; last: string }>(
      `SELECT problem_id, count(*) AS runs, max(status = 'passed' AND total > 0) AS solved, max(created_at) AS last
         FROM runs WHERE child_id = ? AND problem_id IS NOT NULL GROUP BY problem_id`,
      [childId],
    );
    for (const r of runs) out.set(r.problem_id, { solved: r.solved === 1, runs: r.runs, hints: 0, last_activity: r.last });
    const hints = this.db.allSync<{ problem_id: number; hints: number; last: string }>(
      'SELECT problem_id, count(*) AS hints, max(created_at) AS last FROM suggestion_events WHERE child_id = ? GROUP BY problem_id',
      [childId],
    );
    for (const h of hints) {
      const p = out.get(h.problem_id) ?? { solved: false, runs: 0, hints: 0, last_activity: null };
      p.hints = h.hints;
      p.last_activity = p.last_activity && p.last_activity > h.last ? p.last_activity : h.last;
      out.set(h.problem_id, p);
    }
    return out;
  }
}
