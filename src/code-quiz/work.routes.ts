import type { Response } from 'express';
import type { AppContext } from '../context.js';
import type { Providers } from '../ai/providers.js';
import type { CodeRunner } from '../code-runner/types.js';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import { principalKey } from '../http/session.js';
import { assertProblemForWork, callerOf } from './access.js';
import { ActivityRepository } from './activity.repository.js';
import { answerBody, eventParams, runBody, runResponse, suggestBody, suggestResponse } from './code-quiz.schema.js';
import { normalizeWhitespace } from './align.js';
import { CallerRateLimit } from './rate-limit.js';
import { runForCaller, sha256 } from './run.service.js';
import { aiSuggestion, offlineSuggestion } from './suggest.service.js';
import { assertRunnerReady } from './test-runner.js';

export interface WorkDeps {
  runner: CodeRunner;
  providers: Providers;
  /** calls of /run and /suggest per minute and session (0: unlimited) */
  perMinute: number;
}

/**
 * The contract's two routes, at the root path as the contract names them, and the child's
 * pick of a hint. Both run only in the sandbox: when it is unavailable they answer 503 with
 * the package to install.
 */
export function registerWorkRoutes(ctx: AppContext, deps: WorkDeps): void {
  const { api, db } = ctx;
  const { runner, providers } = deps;
  const log = ctx.logger.child({ module: 'code-quiz' });
  const activity = new ActivityRepository(db);
  const limit = new CallerRateLimit(db, deps.perMinute);
  const takeCall = (key: string | undefined) => limit.take(key ?? 'anonymous');

  api.route(
    {
      method: 'post',
      path: '/run',
      summary: 'Run code once per test case in the sandbox (optional problemId: also its stored tests)',
      tags: ['Code quiz'],
      access: ['child', 'expert', 'admin'],
      body: runBody,
      response: runResponse,
      errors: {
        400: 'bad input (unknown language lists the supported ones; at most 20 test cases)',
        403: 'problemId of a class the caller is not in',
        404: 'unknown problemId',
        429: 'too many runs (this session, or the sandbox queue is full)',
        503: 'the sandbox is not available (names the package to install)',
      },
    },
    async ({ body, auth }, _req, res) => {
      const caller = callerOf(auth);
      const work = body.problemId === undefined ? undefined : await assertProblemForWork(db, auth, body.problemId);
      await takeCall(principalKey(auth));
      await assertRunnerReady(runner);
      return runForCaller(runner, activity, {
        code: body.code,
        language: body.language,
        cases: body.cases,
        problem: work && { problem: work.problem, classId: work.cls.class_id },
        caller,
        signal: abortOnClose(res),
      });
    },
  );

  api.route(
    {
      method: 'post',
      path: '/suggest',
      summary: 'The next line as a multiple choice: the right line, two proven-wrong ones, an explanation',
      tags: ['Code quiz'],
      access: ['child', 'expert', 'admin'],
      body: suggestBody,
      response: suggestResponse,
      errors: {
        400: 'bad input (unknown language, malformed cursorPosition, language not the problem\'s)',
        403: 'not enrolled in the problem\'s class',
        404: 'unknown problemId',
        429: 'too many requests from this session',
        503: 'the sandbox is not available (names the package to install)',
      },
    },
    async ({ body, auth }, _req, res) => {
      const { problem, cls, caller } = await assertProblemForWork(db, auth, body.problemId);
      if (problem.language !== body.language) {
        throw badRequest(`This problem is written in ${problem.language}, not ${body.language}.`, undefined, 'language_mismatch');
      }
      await takeCall(principalKey(auth));
      await assertRunnerReady(runner);
      const started = performance.now();
      const input = { problem, code: body.code, cursorLine: body.cursorPosition.line };
      const llm = providers.llm();
      const s = llm ? await aiSuggestion(input, { llm, runner, logger: log, signal: abortOnClose(res) }) : offlineSuggestion(input);
      const latencyMs = Math.round(performance.now() - started);
      const eventId = await activity.addSuggestionEvent({
        caller,
        classId: cls.class_id,
        problemId: problem.problem_id,
        language: body.language,
        codeSha256: sha256(body.code),
        cursorLine: body.cursorPosition.line,
        cursorColumn: body.cursorPosition.column,
        generator: s.generator,
        model: s.model,
        suggestion: s.suggestion,
        distractors: s.distractors,
        explanation: s.explanation,
        latencyMs,
      });
      if (s.replaced > 0) log.info({ event_id: eventId, replaced: s.replaced }, 'AI distractors replaced by proven wrong lines');
      return {
        suggestion: s.suggestion,
        distractors: s.distractors,
        explanation: s.explanation,
        event_id: eventId,
        generator: s.generator,
        complete: s.complete,
      };
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/suggestions/{event_id}/answer',
      summary: 'Which of the choices the child picked (the first pick counts)',
      tags: ['Code quiz'],
      access: ['child', 'expert', 'admin'],
      params: eventParams,
      body: answerBody,
      errors: { 400: 'not one of the choices', 403: 'someone else\'s hint', 404: 'unknown event', 409: 'already answered' },
    },
    async ({ params, body, auth }) => {
      const caller = callerOf(auth);
      const event = await activity.suggestionEvent(params.event_id);
      if (!event) throw notFound(`Hint ${params.event_id} was not found.`, 'event_not_found');
      const mine =
        caller.role === 'admin' ||
        (caller.role === 'child' && event.child_id === caller.childId) ||
        (caller.role === 'expert' && event.expert_id === caller.expertId);
      if (!mine) throw forbidden('This hint was asked for by someone else.', 'event_not_yours');
      const distractors = JSON.parse(event.distractors_json) as string[];
      const picked = normalizeWhitespace(body.choice);
      const correct = picked === normalizeWhitespace(event.suggestion);
      const distractorIndex = distractors.findIndex((d) => normalizeWhitespace(d) === picked);
      if (!correct && distractorIndex === -1) throw badRequest('That is not one of the choices of this hint.', undefined, 'unknown_choice');
      if (!(await activity.answer(event.id, body.choice, correct, correct ? null : distractorIndex))) {
        throw conflict('This hint was already answered.', 'already_answered');
      }
      return { success: true, event_id: event.id, correct, suggestion: event.suggestion, explanation: event.explanation };
    },
  );
}

/** Aborts the runs of a request whose caller went away (a closed tablet). */
function abortOnClose(res: Response): AbortSignal {
  const ac = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) ac.abort();
  });
  return ac.signal;
}
