import { QUESTION_TYPES, type QuestionType } from '../questions/questions.schema.js';
import { PERSONAS } from './companions.js';
import type { JudgeInput, RegenerateInput, SegmentInput, SubtitleLine, VariantInput } from './types.js';

/** Pure prompt builders: the same text goes to every SDK adapter. */

export interface Prompt {
  system: string;
  text: string;
  /** attach the segment's frames (generation and regeneration only) */
  withImages: boolean;
}

export const TYPE_GUIDE: Record<QuestionType, string> = {
  character: 'who is in the scene or who did something',
  setting: 'where or when the scene happens',
  feeling: 'how someone feels',
  action: 'what someone does',
  causal: 'why something happened',
  outcome: 'what happened as a result',
  prediction: 'what might happen next',
};

const AUDIENCE =
  'You write comprehension questions about short video segments for children aged about 4 to 8. ' +
  'Use plain words a five-year-old knows, one short sentence per question (at most 15 words), and an expected ' +
  'answer of a few words (1 to 5) that the video clearly supports. Ask only about what is seen or said in the ' +
  'segment. Nothing scary, unkind or about the child personally. Reply with JSON only, no prose.';

export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function formatSubtitles(lines: SubtitleLine[]): string {
  if (lines.length === 0) return '(no speech in this segment)';
  return lines.map((l) => `[${clock(l.time)}] ${l.text}`).join('\n');
}

function describeSegment(s: SegmentInput): string {
  const frames = s.frames.length
    ? `${s.frames.length} frame(s) are attached, taken at ${s.frames.map((f) => clock(f.timestamp)).join(', ')}.`
    : 'No frames are attached.';
  return [
    s.title ? `Video: ${s.title}` : null,
    `Segment: ${clock(s.start)} to ${clock(s.end)}.`,
    frames,
    'Subtitles with timestamps:',
    formatSubtitles(s.subtitles),
  ]
    .filter((x) => x !== null)
    .join('\n');
}

export function segmentPrompt(s: SegmentInput): Prompt {
  const types = QUESTION_TYPES.map((t) => `- ${t}: ${TYPE_GUIDE[t]}`).join('\n');
  return {
    system: AUDIENCE,
    withImages: true,
    text: `${describeSegment(s)}

Write one question for each of these types:
${types}
Rank the questions from 1 (best for this segment) upwards, each rank once. Leave a type out only when the segment gives nothing to ask for it.
Reply exactly in this JSON shape:
{"questions":[{"question_type":"character","question":"...","answer":"...","rank":1}]}`,
  };
}

export function regeneratePrompt(r: RegenerateInput): Prompt {
  const avoid = r.avoid.length ? `\nDo not repeat or closely copy these questions:\n${r.avoid.map((a) => `- ${a}`).join('\n')}` : '';
  const wish = r.instructions ? `\nThe reviewer asks: ${r.instructions}` : '';
  return {
    system: AUDIENCE,
    withImages: true,
    text: `${describeSegment(r.segment)}

Write one new ${r.questionType} question (${TYPE_GUIDE[r.questionType]}).${avoid}${wish}
Reply exactly in this JSON shape:
{"question_type":"${r.questionType}","question":"...","answer":"..."}`,
  };
}

export function variantsPrompt(v: VariantInput): Prompt {
  const personas = v.companions.map((c) => `- ${c}: ${PERSONAS[c].personality}. Style: ${PERSONAS[c].style}.`).join('\n');
  const shape = `{"variants":{${v.companions.map((c) => `"${c}":"..."`).join(',')}}}`;
  return {
    system:
      'You reword questions for young children (about 4 to 8) in the voice of a friendly animal companion. ' +
      'Keep the meaning and keep the same expected answer; never reveal the answer; at most 25 words. Reply with JSON only.',
    withImages: false,
    text: `Question (${v.questionType}): ${v.question}
Expected answer (must stay right, do not include it): ${v.answer}

Reword the question once for each companion:
${personas}
Reply exactly in this JSON shape:
${shape}`,
  };
}

export function judgePrompt(j: JudgeInput): Prompt {
  return {
    system:
      'You check a young child\'s spoken answer to a question about a video. The answer was transcribed by speech ' +
      'recognition and may contain small recognition errors. Be kind but fair. Reply with JSON only.',
    withImages: false,
    text: `${j.question ? `Question: ${j.question}\n` : ''}Expected answer: ${j.expected}
Child's answer (transcribed): ${j.user}

Decide: "correct" when it means the same as the expected answer, "almost" when it is close or partly right, "wrong" otherwise.
Reply exactly in this JSON shape:
{"status":"correct","reason":"one short sentence"}`,
  };
}
