import type { LlmProvider } from '../ai/llm.provider.js';
import type { CodeRunner } from '../code-runner/types.js';
import type { Logger } from '../logger.js';
import { nextStep, normalizeWhitespace, substituteLine } from './align.js';
import { hintPrompt, hintReplySchema } from './ai-hint.js';
import type { CodeLanguage } from './code-quiz.schema.js';
import { COMPLETE_EXPLANATION, COMPLETE_SUGGESTION, explainStep } from './explain.js';
import { casesOf, distinctChoices, failsATest } from './hints.service.js';
import type { MutationKind } from './mutations.js';
import type { Problem } from './problems.repository.js';

/**
 * POST /suggest's content: the next step as a multiple choice. Offline (no key) everything
 * comes from the alignment and the wrong lines proven at save time, so no code runs per
 * request. With a provider, the model writes the wording, and the service checks it: the
 * suggestion must be one line that keeps the solution passing, and every AI distractor is run
 * in the step's place; one that passes the tests (it is not wrong) or that repeats another
 * choice is replaced by a proven wrong line. A provider failure falls back to the offline hint.
 */

export interface Suggestion {
  suggestion: string;
  distractors: string[];
  explanation: string;
  /** the child's code already has every step */
  complete: boolean;
  generator: string;
  model: string | null;
  /** AI distractors replaced because they passed the tests or were not one distinct line */
  replaced: number;
}

export interface SuggestInput {
  problem: Problem;
  code: string;
  cursorLine: number;
}

/** Shown choices: the right line and two wrong ones. */
const WRONG_CHOICES = 2;
/**
 * A child is waiting for the hint: the model gets this long in total (retries included), then the
 * offline hint is used. AI_TIMEOUT_MS (60 s by default) is sized for question generation.
 */
export const AI_HINT_BUDGET_MS = 8000;

export function offlineSuggestion({ problem, code, cursorLine }: SuggestInput): Suggestion & { lineIndex: number | null; spare: string[] } {
  const step = nextStep(problem.solution, code, cursorLine, problem.language);
  if (step.kind === 'complete') {
    return { suggestion: COMPLETE_SUGGESTION, distractors: [], explanation: COMPLETE_EXPLANATION, complete: true, generator: 'offline', model: null, replaced: 0, lineIndex: null, spare: [] };
  }
  const proven = problem.hints.find((h) => h.line === step.line.index)?.distractors ?? [];
  const texts = distinctChoices(step.line.text, proven.map((d) => d.text));
  const shown = texts.slice(0, WRONG_CHOICES);
  const kinds = shown.map((t) => proven.find((d) => d.text === t)!.kind as MutationKind);
  return {
    suggestion: step.line.text,
    distractors: shown,
    explanation: explainStep(step.line.text, problem.language, kinds),
    complete: false,
    generator: 'offline',
    model: null,
    replaced: 0,
    lineIndex: step.line.index,
    spare: texts.slice(WRONG_CHOICES),
  };
}

export interface AiDeps {
  llm: LlmProvider;
  runner: CodeRunner;
  logger: Logger;
  signal?: AbortSignal;
}

export async function aiSuggestion(input: SuggestInput, deps: AiDeps): Promise<Suggestion> {
  const offline = offlineSuggestion(input);
  if (offline.complete || offline.lineIndex === null) return offline;
  const { problem } = input;
  let reply;
  try {
    reply = await deps.llm.askJson(
      hintPrompt({ language: problem.language, title: problem.title, prompt: problem.prompt, solution: problem.solution, code: input.code, cursorLine: input.cursorLine, nextLine: offline.suggestion }),
      hintReplySchema,
      500,
      { signal: deps.signal ? AbortSignal.any([deps.signal, AbortSignal.timeout(AI_HINT_BUDGET_MS)]) : AbortSignal.timeout(AI_HINT_BUDGET_MS) },
    );
  } catch (err) {
    deps.logger.warn({ err, provider: deps.llm.name }, 'AI hint failed; the offline hint is used');
    return offline;
  }
  const index = offline.lineIndex;
  const cases = casesOf(problem);
  const indent = /^\s*/.exec(offline.suggestion)![0];
  const asTyped = (l: string) => indent + l.trim();

  // the suggestion: one line that keeps the solution passing, else the reference line
  let suggestion = offline.suggestion;
  if (isOneLine(reply.suggestion, problem.language) && normalizeWhitespace(reply.suggestion) !== normalizeWhitespace(offline.suggestion)) {
    const wrong = await failsATest(deps.runner, problem.language, substituteLine(problem.solution, index, asTyped(reply.suggestion)), cases);
    if (!wrong) suggestion = asTyped(reply.suggestion);
  }

  // the distractors: one line each, distinct, and proven wrong by running them
  const kept: string[] = [];
  let replaced = 0;
  for (const d of reply.distractors.slice(0, WRONG_CHOICES)) {
    const candidate = asTyped(d);
    const ok =
      isOneLine(d, problem.language) &&
      distinctChoices(suggestion, [...kept, candidate]).length === kept.length + 1 &&
      (await failsATest(deps.runner, problem.language, substituteLine(problem.solution, index, candidate), cases));
    if (ok) kept.push(candidate);
    else replaced++;
  }
  for (const spare of distinctChoices(suggestion, [...offline.distractors, ...offline.spare])) {
    if (kept.length >= WRONG_CHOICES) break;
    if (distinctChoices(suggestion, [...kept, spare]).length === kept.length + 1) kept.push(spare);
  }
  return {
    suggestion,
    distractors: kept,
    explanation: reply.explanation,
    complete: false,
    generator: deps.llm.name,
    model: deps.llm.model,
    replaced,
  };
}

/**
 * One line of code and one statement: no line break, and no `;` joining statements outside
 * strings (a trailing `;` in JavaScript is fine).
 */
export function isOneLine(line: string, language: CodeLanguage): boolean {
  if (/[\r\n]/.test(line) || line.trim() === '') return false;
  const code = line.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""').replace(/;\s*$/, '');
  if (language === 'javascript') return /^\s*for\s*\(/.test(code) || !code.includes(';');
  // a Python block header with its body on the same line is two steps (`for x in xs: print(x)`)
  if (/^\s*(for|while|if|elif|else|def|with|try|except)\b/.test(code) && !/:\s*$/.test(code)) return false;
  return !code.includes(';');
}
