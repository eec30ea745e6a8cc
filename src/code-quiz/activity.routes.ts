import { z } from 'zod';
import type { AppContext } from '../context.js';
import { assertOwnClass } from './access.js';
import { ChildrenRepository } from '../accounts/children.repository.js';
import { ActivityRepository, type RunRow, type SuggestionEventRow } from './activity.repository.js';
import { ClassesRepository } from './classes.repository.js';
import { classParams } from './code-quiz.schema.js';
import { ProblemsRepository } from './problems.repository.js';

const activityQuery = z.object({
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'limit must be a whole number from 1 to 1000')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1000, 'limit must be a whole number from 1 to 1000')
    .optional(),
});

/** What the class did, for its teacher: every hint asked for (with the misconceptions) and every run. */
export function registerActivityRoutes(ctx: AppContext): void {
  const { api, db } = ctx;
  const activity = new ActivityRepository(db);
  const classes = new ClassesRepository(db);
  const problems = new ProblemsRepository(db);
  const allChildren = new ChildrenRepository(db);

  /** Names for the rows: the class's children and problems, and children who left the class since (their runs and hints stay). */
  const names = async (classId: number, childIds: (string | null)[]): Promise<Names> => {
    const children = new Map((await classes.enrolled(classId)).map((c) => [c.child_id, c.first_name]));
    const titles = new Map((await problems.listByClasses([classId])).map((p) => [p.problem_id, p.title]));
    for (const id of new Set(childIds)) {
      if (id && !children.has(id)) children.set(id, (await allChildren.get(id))?.first_name ?? '');
    }
    return { child: (id: string | null) => (id ? (children.get(id) ?? '') : null), title: (id: number | null) => (id ? (titles.get(id) ?? '') : null) };
  };

  api.route(
    {
      method: 'get',
      path: '/api/expert/classes/{class_id}/suggestion-events',
      summary: "Every hint the class asked for, and the wrong choices picked most (the class's misconceptions)",
      tags: ['Code quiz'],
      access: ['expert', 'admin'],
      params: classParams,
      query: activityQuery,
      errors: { 403: "another expert's class", 404: 'unknown class' },
    },
    async ({ params, query, auth }) => {
      const cls = await assertOwnClass(db, auth, params.class_id);
      const rows = await activity.suggestionEvents(cls.class_id, query.limit ?? 200);
      const n = await names(cls.class_id, rows.map((e) => e.child_id));
      const events = rows.map((e) => eventView(e, n));
      return { success: true, class_id: cls.class_id, events, misconceptions: misconceptions(events) };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/expert/classes/{class_id}/runs',
      summary: "Every stored run of the class's problems",
      tags: ['Code quiz'],
      access: ['expert', 'admin'],
      params: classParams,
      query: activityQuery,
      errors: { 403: "another expert's class", 404: 'unknown class' },
    },
    async ({ params, query, auth }) => {
      const cls = await assertOwnClass(db, auth, params.class_id);
      const rows = await activity.runs(cls.class_id, query.limit ?? 200);
      const n = await names(cls.class_id, rows.map((r) => r.child_id));
      const runs = rows.map((r) => runView(r, n));
      return { success: true, class_id: cls.class_id, runs };
    },
  );
}

type Names = { child: (id: string | null) => string | null; title: (id: number | null) => string | null };

function eventView(e: SuggestionEventRow, n: Names) {
  return {
    event_id: e.id,
    caller_role: e.caller_role,
    child_id: e.child_id,
    child_name: n.child(e.child_id),
    expert_id: e.expert_id,
    problem_id: e.problem_id,
    problem_title: n.title(e.problem_id),
    language: e.language,
    code_sha256: e.code_sha256,
    cursor: { line: e.cursor_line, column: e.cursor_column },
    generator: e.generator,
    model: e.model,
    suggestion: e.suggestion,
    distractors: JSON.parse(e.distractors_json) as string[],
    explanation: e.explanation,
    latency_ms: e.latency_ms,
    choice: e.choice,
    choice_correct: e.choice_correct === null ? null : e.choice_correct === 1,
    answered_at: e.answered_at,
    created_at: e.created_at,
  };
}

type EventView = ReturnType<typeof eventView>;

/** Wrong choices picked, most often first: which line, which trap, how many children fell in. */
function misconceptions(events: EventView[]) {
  const groups = new Map<string, { problem_id: number; problem_title: string | null; suggestion: string; picked: string; picks: number; children: Set<string> }>();
  for (const e of events) {
    if (e.choice_correct !== false || e.choice === null) continue;
    const key = JSON.stringify([e.problem_id, e.suggestion, e.choice]);
    const g = groups.get(key) ?? { problem_id: e.problem_id, problem_title: e.problem_title, suggestion: e.suggestion, picked: e.choice, picks: 0, children: new Set<string>() };
    g.picks++;
    if (e.child_id) g.children.add(e.child_id);
    groups.set(key, g);
  }
  return [...groups.values()]
    .sort((a, b) => b.picks - a.picks)
    .map((g) => ({ problem_id: g.problem_id, problem_title: g.problem_title, right_line: g.suggestion, picked: g.picked, picks: g.picks, children: g.children.size }));
}

function runView(r: RunRow, n: Names) {
  return {
    run_id: r.id,
    caller_role: r.caller_role,
    child_id: r.child_id,
    child_name: n.child(r.child_id),
    expert_id: r.expert_id,
    problem_id: r.problem_id,
    problem_title: n.title(r.problem_id),
    language: r.language,
    code_sha256: r.code_sha256,
    passed: r.passed,
    total: r.total,
    status: r.status,
    runtime_ms: r.runtime_ms,
    created_at: r.created_at,
  };
}
