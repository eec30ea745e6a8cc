import type { Companion } from '../config.js';
import { QUESTION_TYPES, type GeneratedQuestion } from '../questions/questions.schema.js';
import { ProviderError } from './errors.js';
import { buildCandidates, type Candidate } from './builtin/questions.js';
import type {
  CallOptions,
  JudgeInput,
  JudgeResult,
  QuestionProvider,
  RegenerateInput,
  RegeneratedQuestion,
  SegmentInput,
  VariantInput,
} from './types.js';

/**
 * The offline provider: questions from the subtitle text alone (no frames, no keys, no network).
 * It asks only what the narration supports, so a type is left out when the text has nothing
 * for it; a segment without speech is a `no_input` error rather than empty questions.
 */
export class BuiltinProvider implements QuestionProvider {
  readonly name = 'builtin' as const;
  readonly model = 'subtitle-rules-v1';

  async generateSegment(input: SegmentInput, opts: CallOptions = {}): Promise<GeneratedQuestion[]> {
    checkAborted(opts.signal);
    const best = bestPerType(buildCandidates(input.subtitles, input.after));
    if (best.length === 0) {
      throw new ProviderError(
        'no_input',
        input.subtitles.length === 0
          ? 'No speech in this segment: the offline provider needs subtitles (configure an AI provider to use the frames).'
          : 'The offline provider found nothing to ask in this segment\'s subtitles.',
        this.name,
      );
    }
    return best
      .sort((a, b) => b.score - a.score || QUESTION_TYPES.indexOf(a.question_type) - QUESTION_TYPES.indexOf(b.question_type))
      .map((c, i) => ({ question_type: c.question_type, question: c.question, answer: c.answer, llm_ranking: i + 1 }));
  }

  async regenerateQuestion(input: RegenerateInput, opts: CallOptions = {}): Promise<RegeneratedQuestion> {
    checkAborted(opts.signal);
    const avoid = new Set(input.avoid.map(normalize));
    const fresh = buildCandidates(input.segment.subtitles, input.segment.after)
      .filter((c) => c.question_type === input.questionType && !avoid.has(normalize(c.question)))
      .sort((a, b) => b.score - a.score)[0];
    if (!fresh) {
      throw new ProviderError('no_input', `The offline provider has no other ${input.questionType} question for this segment.`, this.name);
    }
    return { question_type: fresh.question_type, question: fresh.question, answer: fresh.answer };
  }

  async writeVariants(input: VariantInput, opts: CallOptions = {}): Promise<Partial<Record<Companion, string>>> {
    checkAborted(opts.signal);
    const out: Partial<Record<Companion, string>> = {};
    for (const c of input.companions) out[c] = templateVariant(c, input.question);
    return out;
  }

  /** Word overlap only: the quiz uses a real provider as judge, or none (see createProviders). */
  async judgeAnswer(input: JudgeInput): Promise<JudgeResult> {
    const expected = new Set(contentWords(input.expected));
    const said = contentWords(input.user);
    const hits = said.filter((w) => expected.has(w)).length;
    const ratio = expected.size ? hits / expected.size : 0;
    const status = ratio >= 0.99 ? 'correct' : ratio >= 0.5 ? 'almost' : 'wrong';
    return { status, reason: `${hits} of ${expected.size} key words matched.`, provider: this.name };
  }
}

const OPENERS: Record<Companion, string[]> = {
  bunny: ['Hop hop, friend!', 'My ears are wiggling!', 'Hop hop!'],
  pig: ['Oink oink!', 'Snort! Ooh, a fun one!', 'Oink! Guess what?'],
  alligator: ['Snap snap, explorer!', 'Hey there, brave explorer.', 'Snap snap!'],
};
const CLOSERS: Record<Companion, string> = {
  bunny: 'Can you tell me?',
  pig: 'Hee hee, tell me!',
  alligator: "Let's find out together.",
};

/** A companion's wording: an opener in its voice, the question, and its closing words. */
export function templateVariant(c: Companion, question: string): string {
  const openers = OPENERS[c];
  const pick = openers[[...question].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7) % openers.length]!;
  return `${pick} ${question.trim()} ${CLOSERS[c]}`;
}

function bestPerType(cands: Candidate[]): Candidate[] {
  const best = new Map<string, Candidate>();
  for (const c of cands) {
    const cur = best.get(c.question_type);
    if (!cur || c.score > cur.score) best.set(c.question_type, c);
  }
  return [...best.values()];
}

const STOP = new Set(['a', 'an', 'the', 'is', 'was', 'it', 'to', 'and', 'of', 'her', 'his', 'their', 'i', 'think', 'um', 'uh']);
const contentWords = (s: string) => normalize(s).split(' ').filter((w) => w && !STOP.has(w));
const normalize = (s: string) => s.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ').replace(/\s+/g, ' ').trim();

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new ProviderError('aborted', 'The request was cancelled.', 'builtin');
}
