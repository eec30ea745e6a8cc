import type { Database } from '../db/database.js';
import { assertChildAccess, canActOnChild, type ChildAccessRow } from '../accounts/access.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import type { Auth } from '../http/session.js';
import { COMPANIONS } from '../config.js';
import { AttemptsRepository, type AnswerRow, type AttemptRow } from './attempts.repository.js';
import { toAnswer } from './details.js';
import { putCheckpoint } from './checkpoint.service.js';
import type { SaveQuizInput } from './quiz.schema.js';

/** Rules of saving and reading quiz attempts; routes stay thin. */

export interface SavedAttempt {
  success: true;
  attempt_id: number | null;
  checkpoint: boolean;
  percentage: number | null;
  question_count: number;
  message: string;
}

/**
 * Who may write a child's quiz data for a video: the child must be the caller's (see
 * assertChildAccess) and the video must exist and be in the child's library (admin: any video).
 */
export async function assertQuizTarget(db: Database, auth: Auth, childId: string, videoId: string): Promise<{ child: ChildAccessRow; title: string; mode: string }> {
  const target = await new AttemptsRepository(db).quizTarget(childId, videoId);
  // the same answers, in the same order, as assertChildAccess and then the video's checks
  if (!target) throw notFound(`Child ${childId} was not found.`, 'child_not_found');
  if (!canActOnChild(auth, target)) throw forbidden('This child profile is not in your family.', 'child_not_yours');
  if (target.video_title === null) throw notFound(`Video ${videoId} was not found.`, 'video_not_found');
  if (auth.role !== 'admin' && target.in_library !== 1) {
    throw forbidden("This video is not in the child's library.", 'video_not_yours');
  }
  const child: ChildAccessRow = { id: target.id, expert_id: target.expert_id, parent_id: target.parent_id, active: target.active };
  return { child, title: target.video_title, mode: target.interaction_mode };
}

export const sessionCompanion = (value: unknown): string | null =>
  typeof value === 'string' && (COMPANIONS as readonly string[]).includes(value) ? value : null;

export async function saveQuizScore(db: Database, auth: Auth, input: SaveQuizInput, companionInSession?: unknown): Promise<SavedAttempt> {
  if (input.checkpoint === true) {
    const saved = await putCheckpoint(db, auth, input.child_id, input.video_id, input, companionInSession);
    return {
      success: true,
      attempt_id: null,
      checkpoint: true,
      percentage: null,
      question_count: saved.details.length,
      message: 'Checkpoint saved: the video can be resumed.',
    };
  }
  const { child, title, mode: childMode } = await assertQuizTarget(db, auth, input.child_id, input.video_id);
  const repo = new AttemptsRepository(db);
  const answers = (input.details ?? []).map(toAnswer);
  const graded = answers.filter((a) => a.status !== null);
  const count = (status: string) => answers.filter((a) => a.status === status).length;
  const counts = answers.length > 0 ? { total: answers.length, graded: graded.length, correct: count('correct'), almost: count('almost'), wrong: count('wrong') } : sentCounts(input);
  const { correct, almost } = counts;
  // Nothing graded (passive mode, no question reached): the attempt records watching, not a score.
  const computed = counts.graded > 0 ? Math.round((1000 * (correct + 0.5 * almost)) / counts.graded) / 10 : null;
  const percentage = input.percentage ?? computed;
  const mode = input.interaction_mode ?? childMode ?? 'flexible';
  const id = await repo.save(
    {
      child_id: child.id,
      video_id: input.video_id,
      video_title: title,
      companion: input.companion ?? sessionCompanion(companionInSession),
      interaction_mode: mode,
      percentage,
      total_retries: input.total_retries ?? answers.reduce((sum, a) => sum + a.retries, 0),
      watch_minutes: input.watch_minutes ?? 0,
      question_count: counts.total,
      correct_count: correct,
      almost_count: almost,
      wrong_count: counts.wrong,
    },
    answers,
  );
  return { success: true, attempt_id: id, checkpoint: false, percentage, question_count: counts.total, message: 'Quiz score saved.' };
}

/** Counts sent without details (total/correct/almost/wrong, e.g. the original's score_data). */
function sentCounts(input: SaveQuizInput) {
  const correct = input.correct ?? 0;
  const almost = input.almost ?? 0;
  const wrong = input.wrong ?? 0;
  const total = input.total ?? correct + almost + wrong;
  if (correct + almost + wrong > total) {
    throw badRequest(`correct + almost + wrong (${correct + almost + wrong}) is more than total (${total}).`, undefined, 'validation_error');
  }
  return { total, graded: total, correct, almost, wrong };
}

export function attemptView(a: AttemptRow, answers: AnswerRow[], titles: Map<string, string>) {
  return {
    attempt_id: a.id,
    child_id: a.child_id,
    video_id: a.video_id,
    video_title: titles.get(a.video_id) ?? a.video_title,
    companion: a.companion,
    interaction_mode: a.interaction_mode,
    percentage: a.percentage,
    total_retries: a.total_retries,
    watch_minutes: a.watch_minutes,
    question_count: a.question_count,
    correct: a.correct_count,
    almost: a.almost_count,
    wrong: a.wrong_count,
    created_at: a.created_at,
    details: answers.map(answerView),
  };
}

export function answerView(r: AnswerRow) {
  const extra = r.extra_json ? (JSON.parse(r.extra_json) as Record<string, unknown>) : {};
  return {
    ...extra,
    question: r.question,
    question_type: r.question_type,
    expected: r.expected,
    user: r.user_answer,
    status: r.status,
    similarity: r.similarity,
    segment_range_start: r.segment_range_start,
    segment_range_end: r.segment_range_end,
    retries: r.retries,
  };
}

export async function quizScores(db: Database, auth: Auth, childId: string, opts: { videoId?: string; limit?: number }) {
  await assertChildAccess(db, auth, childId);
  const repo = new AttemptsRepository(db);
  const attempts = await repo.attempts({ childIds: [childId], videoId: opts.videoId, limit: opts.limit });
  const answers = await repo.answersByAttempt(attempts.map((a) => a.id));
  const titles = await repo.videoTitles(attempts.map((a) => a.video_id));
  return {
    success: true as const,
    child_id: childId,
    count: attempts.length,
    attempts: attempts.map((a) => attemptView(a, answers.get(a.id) ?? [], titles)),
  };
}
