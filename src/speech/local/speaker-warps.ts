import { RecentMap } from '../../recent-map.js';

/**
 * Vocal tract length normalization per speaker, learned from the speaker's own answers.
 *
 * The acoustic model was trained on adults; a child's shorter vocal tract puts every formant
 * higher, and a single fixed warp would help one voice and hurt the next (docs/speech.md). So
 * the first answers of each speaker are decoded at every candidate warp, and the decoder's own
 * scores pick the warp that fits this speaker best: the warp whose decodes score highest per
 * frame, summed over the speaker's answers so far (maximum likelihood, no labels needed). After
 * `learnAnswers` answers only the chosen warp is decoded, except every `relearnEvery`-th answer,
 * which is decoded at every candidate again and added to the sums, so a choice made on a few
 * poor first recordings (a noisy room, a television) is corrected as the child goes on.
 *
 * Privacy: what is kept per speaker is one number per candidate warp, in memory only, for the
 * most recent `maxSpeakers` speakers; never audio, never words, never written to disk, and
 * forgotten when the service restarts.
 */

export interface SpeakerWarpOptions {
  /** warps to choose from; must include 1 (no warp) */
  candidates: readonly number[];
  /** answers decoded at every candidate before the choice is settled */
  learnAnswers: number;
  /** after that, every this many answers are decoded at every candidate again */
  relearnEvery: number;
  /** speakers remembered (least recently heard forgotten first) */
  maxSpeakers: number;
}

/** Measured with bench/speech.ts (docs/speech.md). */
export const DEFAULT_SPEAKER_WARPS: SpeakerWarpOptions = { candidates: [0.9, 1, 1.3, 1.5], learnAnswers: 5, relearnEvery: 20, maxSpeakers: 1000 };

interface Profile {
  /** per candidate: the sum over learned answers of the decode's score per frame */
  sums: number[];
  /** answers learned from (decoded at every candidate) */
  answers: number;
  /** answers decoded at the chosen warp alone since the last learned one */
  settled: number;
}

export class SpeakerWarps {
  private readonly profiles: RecentMap<string, Profile>;

  constructor(readonly o: SpeakerWarpOptions = DEFAULT_SPEAKER_WARPS) {
    if (!o.candidates.includes(1)) throw new Error('The warp candidates must include 1.');
    this.profiles = new RecentMap(o.maxSpeakers);
  }

  /**
   * The warps to decode this speaker's next answer with: all candidates while learning (and on
   * every `relearnEvery`-th answer), else the chosen one. Call it once per answer: it counts them.
   */
  warpsFor(speaker: string | undefined): readonly number[] {
    if (speaker === undefined) return [1];
    const p = this.profiles.get(speaker);
    if (!p || p.answers < this.o.learnAnswers || p.settled + 1 >= this.o.relearnEvery) return this.o.candidates;
    p.settled++;
    return [this.best(p)];
  }

  /**
   * Adds one answer decoded at every candidate (`scores[i]` = score per frame at candidates[i])
   * and returns the warp that now fits the speaker best.
   */
  learn(speaker: string, scores: readonly number[]): number {
    if (scores.length !== this.o.candidates.length || !scores.every(Number.isFinite)) return this.chosen(speaker);
    const p = this.profiles.get(speaker) ?? { sums: this.o.candidates.map(() => 0), answers: 0, settled: 0 };
    scores.forEach((s, i) => (p.sums[i]! += s));
    p.answers++;
    p.settled = 0;
    this.profiles.set(speaker, p);
    return this.best(p);
  }

  /** The warp this speaker's answers are decoded with (1 for a speaker not heard yet). */
  chosen(speaker: string): number {
    const p = this.profiles.peek(speaker);
    return p ? this.best(p) : 1;
  }

  get size(): number {
    return this.profiles.size;
  }

  private best(p: Profile): number {
    if (p.answers === 0) return 1;
    let bestIndex = this.o.candidates.indexOf(1);
    p.sums.forEach((s, i) => {
      if (s > p.sums[bestIndex]!) bestIndex = i;
    });
    return this.o.candidates[bestIndex]!;
  }
}
