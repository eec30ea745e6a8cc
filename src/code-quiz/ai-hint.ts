import { z } from 'zod';
import type { Prompt } from '../ai/prompts.js';
import type { CodeLanguage } from './code-quiz.schema.js';

/**
 * The AI hint's prompt and reply shape. The model is told which reference line is the next
 * step (the offline alignment decides that, so the AI never picks a step that gives away more),
 * and writes the wording: the line as the child should type it, two wrong lines a beginner
 * would plausibly write, and a short explanation. Everything it answers is checked afterwards
 * (suggest.service.ts): one line only, distractors run against the tests.
 */

const line = z.string().max(300);

export const hintReplySchema = z.object({
  suggestion: line,
  distractors: z.array(line).min(1).max(4),
  explanation: z.string().trim().min(1).max(400),
});
export type HintReply = z.output<typeof hintReplySchema>;

export interface HintPromptInput {
  language: CodeLanguage;
  title: string;
  prompt: string;
  solution: string;
  /** the child's code with the cursor marked */
  code: string;
  cursorLine: number;
  nextLine: string;
}

const SYSTEM =
  'You help children aged 7 to 11 learn to program. A child asked for help with the next line of their program. ' +
  'Reply with JSON only, no prose, exactly {"suggestion": string, "distractors": [string, string], "explanation": string}. ' +
  '"suggestion" is ONE line of code: the next step given below, never more than one line. ' +
  '"distractors" are two different single lines a beginner might wrongly write instead (for example < instead of <=, ' +
  'off by one in a range, the wrong variable, = instead of ==, print instead of return); each must really be wrong. ' +
  '"explanation" is one or two short sentences in simple words saying what the right line does. Never include the rest of the solution.';

export function hintPrompt(i: HintPromptInput): Prompt {
  const numbered = i.code
    .split('\n')
    .map((l, n) => `${String(n + 1).padStart(3)}${n + 1 === i.cursorLine ? ' >' : '  '} ${l}`)
    .join('\n');
  const text = [
    `Problem: ${i.title}`,
    `Task for the child: ${i.prompt}`,
    `Language: ${i.language}`,
    'Reference solution (for you only, never show it):',
    i.solution,
    `The child's code so far (the cursor is on line ${i.cursorLine}, marked with >):`,
    numbered || '(empty)',
    `The next step the child should write: ${i.nextLine.trim()}`,
  ].join('\n');
  return { system: SYSTEM, text, withImages: false };
}
