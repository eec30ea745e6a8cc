/**
 * Decides which progress reports are worth passing on. yt-dlp prints a line per block and
 * ffmpeg one every half second; writing each to SQLite and every admin socket would cost more
 * than the work it reports. A report passes when the text changed, when the job reaches 100 %,
 * or when it moved by at least `minStep` and `minIntervalMs` went by since the last one.
 */
export class ProgressThrottle {
  private lastAt = Number.NEGATIVE_INFINITY;
  private lastFraction = -1;
  private lastMessage: string | undefined;

  constructor(
    private readonly minIntervalMs = 250,
    private readonly minStep = 0.01,
    private readonly now: () => number = Date.now,
  ) {}

  /** the clamped fraction to report, or undefined when this report should be dropped */
  accept(fraction: number, message: string): number | undefined {
    const f = clampFraction(fraction);
    const t = this.now();
    const changedText = message !== this.lastMessage;
    const done = f >= 1 && this.lastFraction < 1;
    const moved = Math.abs(f - this.lastFraction) >= this.minStep && t - this.lastAt >= this.minIntervalMs;
    if (!changedText && !done && !moved) return undefined;
    this.lastAt = t;
    this.lastFraction = f;
    this.lastMessage = message;
    return f;
  }
}

export function clampFraction(f: number): number {
  if (!Number.isFinite(f) || f < 0) return 0;
  return f > 1 ? 1 : Math.round(f * 10_000) / 10_000;
}
