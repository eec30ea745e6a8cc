import type { Database } from '../db/database.js';
import { codeReport } from '../code-quiz/report.js';
import { AttemptsRepository, type AnswerRow, type AttemptRow, type ChildRow } from './attempts.repository.js';

export type { ChildRow };
import { attemptView } from './quiz.service.js';
import { checkpointView } from './checkpoint.service.js';
import { INTERACTION_MODES } from './quiz.schema.js';

/**
 * The one report builder behind the learner, expert and admin report routes: a child's
 * overall score, attempts, per-question-type and per-mode figures, watch time, recent
 * videos, score over time, and the child's own words for every answer that was not correct.
 * Scores: an answer earns 1 (correct), 0.5 (almost) or 0 (wrong, skipped); an attempt's score
 * is its percentage; the overall score is the mean over attempts that have one.
 */

export interface ReportFilters {
  videoId?: string;
  mode?: string;
}

const RECENT_VIDEOS = 10;
const SCORE_POINTS = 100;

export async function loadChildren(db: Database, where: { childId?: string; expertId?: string }): Promise<ChildRow[]> {
  return new AttemptsRepository(db).children(where);
}

export async function buildChildReport(db: Database, child: ChildRow, filters: ReportFilters, opts: { includeAttempts?: boolean } = {}) {
  const repo = new AttemptsRepository(db);
  const attempts = await repo.attempts({ childIds: [child.id], videoId: filters.videoId, mode: filters.mode });
  const answers = await repo.answersByAttempt(attempts.map((a) => a.id));
  const titles = await repo.videoTitles(attempts.map((a) => a.video_id));
  const checkpoints = (await repo.checkpoints([child.id]))
    .filter((c) => (!filters.videoId || c.video_id === filters.videoId) && (!filters.mode || c.interaction_mode === filters.mode))
    .map(checkpointView);
  // titles of unfinished videos that have no attempt in the figures
  const checkpointTitles = await repo.videoTitles(checkpoints.map((c) => c.video_id).filter((id) => !titles.has(id)));
  const code = await codeReport(db, child.id);
  const title = (a: AttemptRow) => titles.get(a.video_id) ?? a.video_title;
  const all = attempts.flatMap((a) => answers.get(a.id) ?? []);
  const scored = attempts.filter((a) => a.percentage !== null);
  const dates = attempts.map((a) => a.created_at).sort();

  const report = {
    child: {
      child_id: child.id,
      first_name: child.first_name,
      last_name: child.last_name,
      icon_key: child.icon_key,
      interaction_mode: child.interaction_mode,
      expert_id: child.expert_id,
      parent_id: child.parent_id,
      active: child.active === 1,
    },
    filters: { video_id: filters.videoId ?? null, mode: filters.mode ?? null },
    overall: {
      score: mean(scored.map((a) => a.percentage as number)),
      attempts: attempts.length,
      scored_attempts: scored.length,
      ...answerCounts(all),
      total_retries: sum(attempts.map((a) => a.total_retries)),
      watch_minutes: round(sum(attempts.map((a) => a.watch_minutes))),
      videos_watched: new Set(attempts.map((a) => a.video_id)).size,
      first_activity: dates[0] ?? null,
      last_activity: dates[dates.length - 1] ?? null,
    },
    by_question_type: byQuestionType(all),
    by_mode: INTERACTION_MODES.map((mode) => {
      const inMode = attempts.filter((a) => a.interaction_mode === mode);
      const withScore = inMode.filter((a) => a.percentage !== null);
      return {
        interaction_mode: mode,
        attempts: inMode.length,
        scored_attempts: withScore.length,
        average_score: mean(withScore.map((a) => a.percentage as number)),
        ...answerCounts(inMode.flatMap((a) => answers.get(a.id) ?? [])),
        total_retries: sum(inMode.map((a) => a.total_retries)),
        watch_minutes: round(sum(inMode.map((a) => a.watch_minutes))),
      };
    }),
    recent_videos: recentVideos(attempts, title),
    /** one row per session (every saved attempt), newest first, with its mode and retries */
    sessions: attempts.map((a) => ({
      attempt_id: a.id,
      date: a.created_at,
      video_id: a.video_id,
      video_title: title(a),
      companion: a.companion,
      interaction_mode: a.interaction_mode,
      percentage: a.percentage,
      total_retries: a.total_retries,
      watch_minutes: a.watch_minutes,
      questions: a.question_count,
      correct: a.correct_count,
    })),
    score_over_time: [...scored].reverse().map((a) => ({
      attempt_id: a.id,
      date: a.created_at,
      video_id: a.video_id,
      video_title: title(a),
      interaction_mode: a.interaction_mode,
      percentage: a.percentage as number,
    })),
    /** videos left unfinished (checkpoints): not in the figures above until the attempt is saved */
    in_progress: checkpoints.map((c) => ({
      video_id: c.video_id,
      title: titles.get(c.video_id) ?? checkpointTitles.get(c.video_id) ?? '',
      position_seconds: c.position_seconds,
      duration_seconds: c.duration_seconds,
      watch_minutes: c.watch_minutes,
      questions_answered: c.details.length,
      updated_at: c.updated_at,
    })),
    /** code problems of the child's classes: solved, hints used, runs (src/code-quiz/report.ts) */
    code,
    answers_to_review: attempts.flatMap((a) =>
      (answers.get(a.id) ?? [])
        .filter((r) => r.status !== null && r.status !== 'correct')
        .map((r) => ({
          attempt_id: a.id,
          date: a.created_at,
          video_id: a.video_id,
          video_title: title(a),
          question: r.question,
          question_type: r.question_type,
          expected: r.expected,
          said: r.user_answer,
          status: r.status,
          similarity: r.similarity,
          retries: r.retries,
          segment_range_start: r.segment_range_start,
          segment_range_end: r.segment_range_end,
        })),
    ),
  };
  if (!opts.includeAttempts) return report;
  return { ...report, attempts: attempts.map((a) => attemptView(a, answers.get(a.id) ?? [], titles)) };
}

export type ChildReport = Awaited<ReturnType<typeof buildChildReport>>;

/** Totals over several children's reports (the expert's overview). */
export function summarize(reports: ChildReport[]) {
  const scoredTotal = sum(reports.map((r) => r.overall.scored_attempts));
  const weighted = sum(reports.map((r) => r.overall.score * r.overall.scored_attempts));
  return {
    children: reports.length,
    attempts: sum(reports.map((r) => r.overall.attempts)),
    scored_attempts: scoredTotal,
    average_score: scoredTotal > 0 ? round(weighted / scoredTotal) : 0,
    questions_answered: sum(reports.map((r) => r.overall.questions_answered)),
    correct: sum(reports.map((r) => r.overall.correct)),
    almost: sum(reports.map((r) => r.overall.almost)),
    wrong: sum(reports.map((r) => r.overall.wrong)),
    watch_minutes: round(sum(reports.map((r) => r.overall.watch_minutes))),
  };
}

function answerCounts(rows: AnswerRow[]) {
  const graded = rows.filter((r) => r.status !== null);
  const n = (status: string) => rows.filter((r) => r.status === status).length;
  const correct = n('correct');
  const almost = n('almost');
  return {
    questions_answered: rows.length,
    correct,
    almost,
    wrong: n('wrong'),
    skipped: n('skipped'),
    /** share of points over graded answers, 0..100 */
    answer_score: graded.length > 0 ? round((SCORE_POINTS * (correct + 0.5 * almost)) / graded.length) : 0,
  };
}

function byQuestionType(rows: AnswerRow[]) {
  const groups = new Map<string, AnswerRow[]>();
  for (const r of rows) {
    const key = r.question_type ?? 'unknown';
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([questionType, list]) => {
      const c = answerCounts(list);
      return { question_type: questionType, questions: list.length, correct: c.correct, almost: c.almost, wrong: c.wrong, skipped: c.skipped, score: c.answer_score };
    });
}

function recentVideos(attempts: AttemptRow[], title: (a: AttemptRow) => string) {
  const byVideo = new Map<string, AttemptRow[]>();
  // attempts arrive newest first, so the first attempt seen per video is its latest
  for (const a of attempts) byVideo.set(a.video_id, [...(byVideo.get(a.video_id) ?? []), a]);
  return [...byVideo.values()].slice(0, RECENT_VIDEOS).map((list) => {
    const latest = list[0] as AttemptRow;
    const scores = list.filter((a) => a.percentage !== null).map((a) => a.percentage as number);
    return {
      video_id: latest.video_id,
      title: title(latest),
      attempts: list.length,
      last_played: latest.created_at,
      last_score: latest.percentage,
      best_score: scores.length > 0 ? Math.max(...scores) : null,
      watch_minutes: round(sum(list.map((a) => a.watch_minutes))),
    };
  });
}

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
const round = (x: number) => Math.round(x * 10) / 10;
const mean = (xs: number[]) => (xs.length > 0 ? round(sum(xs) / xs.length) : 0);
