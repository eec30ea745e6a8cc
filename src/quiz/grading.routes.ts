import type { AppContext } from '../context.js';
import type { AnswerJudge } from '../ai/types.js';
import { gradeWithJudge } from './grading/judge.js';
import { GRADING_THRESHOLDS } from './grading/thresholds.js';
import { SharedRateLimit } from '../coordination/shared-limits.js';
import { principalKey } from '../http/session.js';
import { checkAnswerBody, checkAnswerResponse, configResponse, INTERACTION_MODES } from './quiz.schema.js';

/** How the player asks and listens; it reads these from GET /api/config. */
export const PLAYER_SETTINGS = {
  /** silent tries before the question is skipped (flexible) or asked again later */
  max_silent_retries: 2,
  /** strict mode: replays of a segment after an almost / wrong answer */
  max_strict_replays: 3,
  /** seconds of quiet that end a recording */
  silence_seconds: 2,
} as const;

export function registerGradingRoutes(ctx: AppContext, judge: () => AnswerJudge | null): void {
  const log = ctx.logger.child({ module: 'quiz' });
  // A cost guard for the AI judge: each person may have at most AI_JUDGE_MAX_PER_HOUR borderline
  // answers judged in a sliding hour; beyond that the offline grade stands (a child is never
  // refused or kept waiting). In the database (call times only, never answers), so instances agree.
  const budget = new SharedRateLimit(ctx.db, 'judge', ctx.config.AI_JUDGE_MAX_PER_HOUR, 60 * 60_000);
  const mayAsk = async (key: string | undefined) => key !== undefined && (await budget.take(key)).allowed;

  ctx.api.route(
    {
      method: 'post',
      path: '/api/check_answer',
      summary: "Grade a child's answer against the expected answer",
      tags: ['Kids'],
      access: 'authenticated',
      body: checkAnswerBody,
      response: checkAnswerResponse,
      errors: { 400: `missing field or a text longer than ${GRADING_THRESHOLDS.max_text_length} characters` },
    },
    async ({ body, auth }) => {
      const input = { expected: body.expected, user: body.user, question: body.question ?? undefined };
      const result = await gradeWithJudge(input, judge(), ctx.config.AI_JUDGE_TIMEOUT_MS, log, () => mayAsk(principalKey(auth)));
      // Children's answers stay out of info logs.
      log.debug({ status: result.status, similarity: result.similarity }, 'answer graded');
      return result;
    },
  );

  ctx.api.route(
    {
      method: 'get',
      path: '/api/config',
      summary: 'Player settings: skip prevention, grading thresholds, answer time limits',
      tags: ['Kids'],
      access: 'public',
      response: configResponse,
    },
    () => ({
      skip_prevention: ctx.config.SKIP_PREVENTION,
      thresholds: GRADING_THRESHOLDS,
      answer_time_limit_seconds: ctx.config.ANSWER_TIME_LIMIT_SECONDS,
      ...PLAYER_SETTINGS,
      interaction_modes: INTERACTION_MODES,
      ai_judge: judge() !== null,
    }),
  );
}
