import type { Database } from '../db/database.js';
import { getJobs, listJobs } from './jobs.repository.js';
import { FINISHED_STATES, type Job } from './jobs.types.js';

/**
 * How an instance learns what other processes did to jobs (a worker on another machine, or a
 * `npm run worker` beside a web instance on one SQLite file): it reads the active rows once a
 * tick and compares them with what it last saw or sent. Polling rather than LISTEN/NOTIFY
 * because it is the same code on both engines and needs no clock agreement between machines;
 * one indexed query a second per instance (only while someone listens or waits).
 */
export class JobWatch {
  /** job id -> signature of the version last seen or emitted */
  private readonly seen = new Map<string, string>();
  /** jobs seen active: read again by id until they are seen finished */
  private readonly watched = new Set<string>();

  /**
   * Records a version this instance is about to emit, so the poll does not repeat it; false when
   * that very version was already emitted (by the poll, a moment earlier).
   */
  note(job: Job): boolean {
    const sig = signature(job);
    const fresh = this.seen.get(job.id) !== sig;
    this.seen.set(job.id, sig);
    if (FINISHED_STATES.includes(job.state)) this.forget(job.id);
    else this.watched.add(job.id);
    return fresh;
  }

  /** Keeps reading a job until it is finished (a `wait` on a job another process runs). */
  watch(id: string): void {
    this.watched.add(id);
  }

  /**
   * The jobs that changed since last seen, skipping the ones this process runs (it emits those
   * itself). The caller must emit each (through `note`), or it is reported again next time.
   */
  async poll(db: Database, local: ReadonlySet<string>): Promise<Job[]> {
    const active = await listJobs(db, { active: true, limit: 1000 });
    const activeIds = new Set(active.map((j) => j.id));
    const askedFor = [...this.watched].filter((id) => !activeIds.has(id)).slice(0, 500);
    const gone = await getJobs(db, askedFor);
    // a watched id with no row any more (deleted): stop asking
    for (const id of askedFor) if (!gone.some((j) => j.id === id)) this.watched.delete(id);
    const changed: Job[] = [];
    for (const job of [...active, ...gone]) {
      if (local.has(job.id)) continue;
      // the caller emits the changed ones, and emitting notes them (seen, watched)
      if (this.seen.get(job.id) !== signature(job)) changed.push(job);
    }
    return changed;
  }

  private forget(id: string): void {
    this.watched.delete(id);
    // the finished version stays known a little (a late poll must not repeat it); trimmed when large
    if (this.seen.size > 5000) for (const key of [...this.seen.keys()].slice(0, 1000)) if (!this.watched.has(key)) this.seen.delete(key);
  }
}

function signature(j: Job): string {
  return `${j.state}|${j.progress}|${j.message}|${j.videoId ?? ''}|${j.cancelRequested ?? ''}`;
}
