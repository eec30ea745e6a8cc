import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import { acquireLease, releaseLease, sweepRateHits, takeRateSlot, type RateDecision } from './coordination.repository.js';

/**
 * A sliding-window limit shared by every instance on one database: at most `max` hits per key
 * within `windowMs`. Keys are namespaced by `name` so limits never count each other's hits.
 * Old hits are swept at most once per window.
 */
export class SharedRateLimit {
  private lastSweep = 0;

  constructor(
    private readonly db: Database,
    private readonly name: string,
    readonly max: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async take(key: string): Promise<RateDecision> {
    if (this.max <= 0) return { allowed: false, retryAfterMs: this.windowMs };
    const now = this.now();
    if (now - this.lastSweep > this.windowMs) {
      this.lastSweep = now;
      await sweepRateHits(this.db, now - this.windowMs * 2).catch(() => undefined); // best effort; take() below is exact anyway
    }
    return takeRateSlot(this.db, `${this.name}:${key}`, this.max, this.windowMs, now);
  }
}

export interface HeldLease {
  /** false once the lease could not be renewed (another instance took it after it expired) */
  readonly held: boolean;
  release(): Promise<void>;
}

/**
 * Takes the named lease for this process, renewing it every third of `ttlMs` until released.
 * Returns null when another holder has it. A crashed holder's lease frees itself after `ttlMs`.
 */
export async function holdLease(db: Database, name: string, ttlMs: number, now: () => number = Date.now): Promise<HeldLease | null> {
  const owner = randomUUID();
  if (!(await acquireLease(db, name, owner, ttlMs, now()))) return null;
  let held = true;
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = acquireLease(db, name, owner, ttlMs, now()).then(
      (ok) => {
        if (!ok) held = false;
      },
      () => undefined, // a failed renewal is retried on the next tick; the lease lasts ttlMs
    );
  }, Math.max(1000, Math.floor(ttlMs / 3)));
  timer.unref();
  return {
    get held() {
      return held;
    },
    async release() {
      clearInterval(timer);
      await renewing;
      held = false;
      await releaseLease(db, name, owner);
    },
  };
}
