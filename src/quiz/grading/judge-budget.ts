import { RecentMap } from '../../recent-map.js';

/**
 * A cost guard for the AI judge: each person (a child profile, an expert, the admin) may have
 * at most `maxPerHour` borderline answers judged in any sliding hour. Beyond that the offline
 * grade stands, so a child is never refused or kept waiting; only the paid call is skipped.
 * Kept in memory (call times only, never answers), for the most recent `maxPeople` people.
 */
export class JudgeBudget {
  private readonly calls: RecentMap<string, number[]>;

  constructor(
    private readonly maxPerHour: number,
    private readonly now: () => number = Date.now,
    maxPeople = 10_000,
  ) {
    this.calls = new RecentMap(maxPeople);
  }

  /** Spends one call for `key` and says whether it was available (no key: never). */
  take(key: string | undefined): boolean {
    if (key === undefined || this.maxPerHour <= 0) return false;
    const now = this.now();
    const recent = (this.calls.get(key) ?? []).filter((t) => now - t < HOUR_MS);
    const allowed = recent.length < this.maxPerHour;
    if (allowed) recent.push(now);
    this.calls.set(key, recent);
    return allowed;
  }
}

const HOUR_MS = 60 * 60_000;
