import { RecentMap } from '../recent-map.js';
import { tooManyRequests } from '../http/errors.js';

/**
 * A per-session limit on code runs and hints (one key per child profile / expert / admin): a
 * sliding one-minute window in memory. Sandbox capacity is the scarce thing here, and a tablet
 * tapping "Run" in a loop must not starve a class; the runner's own queue limit (429/503)
 * still guards the machine as a whole.
 */
export class CallerRateLimit {
  private readonly hits = new RecentMap<string, number[]>(10_000);

  constructor(private readonly perMinute: number) {}

  /** Counts one call for `key`, or throws 429 with Retry-After seconds when the window is full. */
  take(key: string, now = Date.now()): void {
    if (this.perMinute <= 0) return;
    const recent = (this.hits.get(key) ?? []).filter((t) => now - t < 60_000);
    if (recent.length >= this.perMinute) {
      const wait = Math.max(1, Math.ceil((60_000 - (now - recent[0]!)) / 1000));
      this.hits.set(key, recent);
      throw tooManyRequests(`That was a lot of tries in one minute. Please wait ${wait} seconds and try again.`, wait);
    }
    recent.push(now);
    this.hits.set(key, recent);
  }
}
