import type { AnswerJudge } from '../../ai/types.js';
import type { Logger } from '../../logger.js';
import { gradeAnswerDetailed, type GradeInput, type GradeResult } from './grader.js';
import { explain } from './reasons.js';
import { GRADING_THRESHOLDS } from './thresholds.js';

/**
 * Grading with an optional AI judge. The offline grader always runs first; only when it calls
 * its own verdict borderline, and a judge is configured, the judge is asked, within
 * `timeoutMs`. A slow or failing judge leaves the offline verdict in place: a child never
 * waits longer than the time box, and the service works the same with no keys. `mayAsk` is
 * consulted only when the judge would be asked (the per-person budget, kept in the database so every
 * instance counts the same calls: SharedRateLimit in src/coordination).
 */
export async function gradeWithJudge(
  input: GradeInput,
  judge: AnswerJudge | null,
  timeoutMs: number,
  logger?: Logger,
  mayAsk: () => boolean | Promise<boolean> = () => true,
): Promise<GradeResult> {
  const offline = gradeAnswerDetailed(input);
  if (!judge || !offline.borderline) return offline.result;
  if (!(await mayAsk())) {
    logger?.info({ provider: judge.provider }, 'AI judge budget for this person used up; offline grade kept');
    return offline.result;
  }
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`AI judge took longer than ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const verdict = await Promise.race([
      judge.judgeAnswer({ question: input.question, expected: input.expected, user: input.user }, { signal: controller.signal }),
      timeout,
    ]);
    const t = GRADING_THRESHOLDS;
    const sim = offline.result.similarity;
    const similarity =
      verdict.status === 'correct' ? Math.max(sim, t.correct) : verdict.status === 'almost' ? Math.min(t.correct - 0.01, Math.max(t.almost, sim)) : Math.min(sim, t.almost - 0.1);
    const base = explain('ai_judge', verdict.status, { expected: input.expected, user: input.user });
    const reason = `${base} ${verdict.reason.trim().slice(0, 300)}`.trim();
    return { ...offline.result, status: verdict.status, similarity: Math.round(similarity * 100) / 100, reason };
  } catch (err) {
    logger?.warn({ provider: judge.provider, err: err instanceof Error ? err.message : String(err) }, 'AI judge unavailable; offline grade kept');
    return offline.result;
  } finally {
    clearTimeout(timer);
  }
}
