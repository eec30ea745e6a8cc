import type { AnswerContext, WeightedWord } from './vocabulary.js';
import { textToWords } from './words.js';

/**
 * A small bigram model for one recognition, in ARPA form. Unigrams come from the weighted
 * vocabulary (any word can follow any word); bigrams come from a handful of answer frames
 * children use ("it was a", "because he", "in the") and from the context's questions and
 * answers, interpolated with the unigrams:
 *
 *   P(b | a) = lambda * count(a b) / count(a) + (1 - lambda) * P(b)
 *
 * so a seen pair is likelier but an unseen pair keeps (1 - lambda) of its unigram chance:
 * the model prefers fluent answers without ruling any answer out.
 */

/** Frames of short spoken answers; they carry only glue words, never a particular answer. */
export const ANSWER_FRAMES = [
  'it was', 'it is', 'it was a', 'it was the', 'it is a', "it's a", "it's the", 'he was', 'she was', 'they were',
  'he is', 'she is', 'they are', 'there was a', 'there were', 'i think', 'i think it was', 'i think it is', 'i think he',
  'i think she', 'i think they', 'because', 'because it was', 'because he was', 'because she was', 'because they were',
  'because it', 'because he', 'because she', 'because they', 'cause it was', 'cause he', 'so he could', 'so she could',
  'the', 'a', 'an', 'in the', 'on the', 'under the', 'at the', 'to the', 'into the', 'with a', 'with the', 'with his',
  'with her', 'by the', 'from the', 'and the', 'and a', 'and then', 'he went to the', 'she went to the', 'they went to the',
  'he wanted to', 'she wanted to', 'they wanted to', 'he felt', 'she felt', 'they felt', 'he was very', 'she was very',
  'his mom', 'her mom', 'his dad', 'her dad', 'my', 'um', 'uh', 'um it was', 'not', 'he said', 'she said', 'they said',
  'a lot of', 'lots of', 'some', 'two of them', 'all of them',
];

/** Whole answers made of glue words only. */
export const COMPLETE_ANSWERS = ['yes', 'no', 'i do not know', "i don't know", 'two of them', 'all of them'];

/** Words an answer does not end on ("it was the", "because"): ending after them is made rare. */
export const NO_END_AFTER = ['a', 'an', 'the', 'to', 'of', 'in', 'on', 'at', 'with', 'by', 'from', 'into', 'under', 'because', 'cause',
  'and', 'my', 'his', 'her', 'their', 'your', 'its', 'was', 'were', 'is', 'are', 'until', 'um', 'uh', 'very', 'so', 'if', 'than'];

export interface BigramOptions {
  /** share of a seen pair's probability that comes from the pair count (0..1) */
  lambda: number;
  /** how many times the focus texts count, against once for frames and related texts */
  focusRepeat: number;
  /** chance of ending after any word */
  endProb: number;
  /** share of `endProb` left after a word of NO_END_AFTER (1 = no difference) */
  danglingEnd: number;
}

export const DEFAULT_BIGRAM: BigramOptions = { lambda: 0.5, focusRepeat: 3, endProb: 0.2, danglingEnd: 0.01 };

export function buildBigramArpa(words: readonly WeightedWord[], context: AnswerContext, o: BigramOptions = DEFAULT_BIGRAM): string {
  if (words.length === 0) throw new Error('The vocabulary is empty.');
  const known = new Set(words.map((w) => w.word));
  const total = words.reduce((s, w) => s + w.weight, 0);
  const uni = new Map(words.map((w) => [w.word, ((1 - o.endProb) * w.weight) / total]));
  uni.set('</s>', o.endProb);

  const pairs = new Map<string, Map<string, number>>();
  const add = (text: string, times: number, complete = true) => {
    const seq = textToWords(text);
    if (seq.length === 0 || !seq.every((w) => known.has(w))) return;
    const full = ['<s>', ...seq, ...(complete ? ['</s>'] : [])];
    for (let i = 0; i + 1 < full.length; i++) {
      const next = pairs.get(full[i]!) ?? new Map<string, number>();
      next.set(full[i + 1]!, (next.get(full[i + 1]!) ?? 0) + times);
      pairs.set(full[i]!, next);
    }
  };
  // frames begin answers; the answer goes on after them
  for (const f of ANSWER_FRAMES) add(f, 1, false);
  for (const a of COMPLETE_ANSWERS) add(a, 1);
  for (const t of context.related) add(t, 1);
  // phrases meaning the expected answer ("baby pig", "no more"), so their words follow each other
  for (const t of context.neighbours?.same ?? []) if (t.includes(' ')) add(t, 1);
  for (const t of context.focus) add(t, o.focusRepeat);

  const noEnd = new Set(NO_END_AFTER.filter((w) => known.has(w)));
  const bigramLines: string[] = [];
  for (const [a, nexts] of pairs) {
    const count = [...nexts.values()].reduce((s, n) => s + n, 0);
    for (const [b, n] of nexts) {
      const p = o.lambda * (n / count) + (1 - o.lambda) * (uni.get(b) ?? 0);
      bigramLines.push(`${log10(b === '</s>' && noEnd.has(a) ? p * o.danglingEnd : p)} ${a} ${b}`);
    }
  }
  // an answer rarely ends on "the" or "because": an explicit, small chance of ending there
  for (const w of noEnd) {
    if (pairs.get(w)?.has('</s>')) continue;
    const backedOff = (pairs.has(w) ? 1 - o.lambda : 1) * o.endProb;
    bigramLines.push(`${log10(backedOff * o.danglingEnd)} ${w} </s>`);
  }
  const backoff = log10(1 - o.lambda);
  const unigramLines = ['-99.0000 <s> ' + (pairs.has('<s>') ? backoff : '0.0000'), `${log10(o.endProb)} </s>`];
  for (const w of words) unigramLines.push(`${log10(uni.get(w.word)!)} ${w.word}${pairs.has(w.word) ? ` ${backoff}` : ' 0.0000'}`);
  return [
    '\\data\\',
    `ngram 1=${unigramLines.length}`,
    `ngram 2=${bigramLines.length}`,
    '',
    '\\1-grams:',
    ...unigramLines,
    '',
    '\\2-grams:',
    ...bigramLines,
    '',
    '\\end\\',
    '',
  ].join('\n');
}

function log10(p: number): string {
  return Math.log10(Math.max(p, 1e-99)).toFixed(4);
}
