import { RecentMap } from '../../recent-map.js';

/**
 * Vocal tract length normalization per speaker, learned from the speaker's own answers.
 *
 * The acoustic model was trained on adults; a child's shorter vocal tract puts every formant
 * higher, and a single fixed warp would help one voice and hurt the next (docs/speech.md). So
 * the warps form a ladder (0.9 for a deep adult voice up to 2.2 for a small child), and each
 * speaker climbs it: the first answers are decoded at the chosen warp and its two neighbours on
 * the ladder, and the decoder's own scores per frame tell which way fits better (maximum
 * likelihood, no labels needed). For every pair of neighbouring warps the score differences are
 * summed over the answers decoded at both; the choice starts at 1 and moves one rung at a time
 * towards the neighbour that scored better, while one did. A new speaker thus costs three
 * decodes per answer, not one per warp. After `learnAnswers` answers only the chosen warp is
 * decoded, except every `relearnEvery`-th answer, which is decoded at the chosen warp and its
 * neighbours again, so a choice made on a few poor first recordings (a noisy room, a television)
 * is corrected as the child goes on.
 *
 * Privacy: what is kept per speaker is one number per pair of neighbouring warps and a few
 * counters, in memory only, for the most recent `maxSpeakers` speakers; never audio, never
 * words, never written to disk, and forgotten when the service restarts.
 */

export interface SpeakerWarpOptions {
  /** the ladder of warps to choose from, ascending; must include 1 (no warp) */
  candidates: readonly number[];
  /** answers decoded at the chosen warp and its neighbours before the choice is settled */
  learnAnswers: number;
  /** after that, every this many answers are decoded at the chosen warp and its neighbours again */
  relearnEvery: number;
  /** speakers remembered (least recently heard forgotten first) */
  maxSpeakers: number;
}

/** Measured with bench/speech.ts (docs/speech.md). */
export const DEFAULT_SPEAKER_WARPS: SpeakerWarpOptions = { candidates: [0.9, 1, 1.3, 1.6, 1.9, 2.2], learnAnswers: 5, relearnEvery: 20, maxSpeakers: 1000 };

interface Profile {
  /**
   * per pair of neighbouring candidates (i, i + 1): the sum, over the answers decoded at both,
   * of the score per frame at i + 1 minus the score per frame at i (> 0: the higher warp fits better)
   */
  steps: number[];
  /** answers learned from (decoded at the chosen warp and its neighbours) */
  answers: number;
  /** answers decoded at the chosen warp alone since the last learned one */
  settled: number;
}

export class SpeakerWarps {
  private readonly profiles: RecentMap<string, Profile>;
  private readonly one: number;

  constructor(readonly o: SpeakerWarpOptions = DEFAULT_SPEAKER_WARPS) {
    this.one = o.candidates.indexOf(1);
    if (this.one < 0) throw new Error('The warp candidates must include 1.');
    if (o.candidates.some((w, i) => i > 0 && w <= o.candidates[i - 1]!)) throw new Error('The warp candidates must be in ascending order.');
    this.profiles = new RecentMap(o.maxSpeakers);
  }

  /**
   * The warps to decode this speaker's next answer with, ascending: the chosen one and its
   * neighbours on the ladder while learning (and on every `relearnEvery`-th answer), else the
   * chosen one alone. Call it once per answer: it counts them.
   */
  warpsFor(speaker: string | undefined): readonly number[] {
    if (speaker === undefined) return [1];
    const p = this.profiles.get(speaker);
    const at = p ? this.climb(p) : this.one;
    if (!p || p.answers < this.o.learnAnswers || p.settled + 1 >= this.o.relearnEvery) return this.o.candidates.slice(Math.max(0, at - 1), at + 2);
    p.settled++;
    return [this.o.candidates[at]!];
  }

  /**
   * Adds one answer decoded at `warps` (neighbours on the ladder, ascending, as `warpsFor` gave
   * them; `scores[i]` = the score per frame at warps[i]) and returns the warp that now fits the
   * speaker best. Anything else is ignored.
   */
  learn(speaker: string, warps: readonly number[], scores: readonly number[]): number {
    const first = this.o.candidates.indexOf(warps[0]!);
    const valid = warps.length >= 2 && scores.length === warps.length && first >= 0 && scores.every(Number.isFinite) && warps.every((w, i) => this.o.candidates[first + i] === w);
    if (!valid) return this.chosen(speaker);
    const p = this.profiles.get(speaker) ?? { steps: this.o.candidates.slice(1).map(() => 0), answers: 0, settled: 0 };
    for (let i = 0; i + 1 < scores.length; i++) p.steps[first + i]! += scores[i + 1]! - scores[i]!;
    p.answers++;
    p.settled = 0;
    this.profiles.set(speaker, p);
    return this.o.candidates[this.climb(p)]!;
  }

  /** The warp this speaker's answers are decoded with (1 for a speaker not heard yet). */
  chosen(speaker: string): number {
    const p = this.profiles.peek(speaker);
    return this.o.candidates[p ? this.climb(p) : this.one]!;
  }

  get size(): number {
    return this.profiles.size;
  }

  /**
   * From 1, one rung at a time towards the neighbour that fitted better, while one did. (It
   * cannot turn back: a step up needs the pair's sum above 0, the step back down below 0.)
   */
  private climb(p: Profile): number {
    let i = this.one;
    for (;;) {
      const up = i + 1 < this.o.candidates.length ? p.steps[i]! : -Infinity;
      const down = i > 0 ? -p.steps[i - 1]! : -Infinity;
      if (Math.max(up, down) <= 0) return i;
      i += up >= down ? 1 : -1;
    }
  }
}
