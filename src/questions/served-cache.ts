import type { Database } from '../db/database.js';
import { RecentMap } from '../recent-map.js';
import { questionsRevision } from './final.repository.js';
import type { FinalQuestionSegment } from './questions.schema.js';

/**
 * What children are served, cached per instance (issue #16: the one-statement selection was about
 * a fifth of GET /api/final-questions' CPU, for data that changes only when an expert edits).
 *
 * Exact, with no TTL: every request reads the video's questions_rev from the shared database
 * (one primary-key row), and triggers (migration 012) add 1 to it in the same transaction as any
 * change of what the selection reads. An entry is used only when the revision it was stored under
 * is the one read now, so a change committed on any instance is seen by the next request here.
 *
 * Why the revision is read BEFORE the selection, on both engines: outside a transaction each
 * statement sees everything committed before it started (SQLite: the one connection, which also
 * waits for this process's open transaction; PostgreSQL: READ COMMITTED, any pooled connection).
 * The selection starts after the revision read returned, so it sees the data as of that revision
 * or newer. Newer means a commit in between, which also moved the revision past the one we store:
 * the entry is then stale (the next request misses and reloads), never wrong-but-current. Read in
 * the other order, a commit in between would label the old data with the new revision for good.
 *
 * The revision restarts at 0 when a video is deleted and downloaded again under the same id, so
 * an entry also carries the row's created_at (two lives of one video are not created in one
 * millisecond). Handles inside a transaction are never cached: they see uncommitted revisions
 * that a rollback takes back. The cache belongs to the database handle (an instance holds one),
 * so two apps in one process (tests) keep their own caches, as separate processes do.
 *
 * Entries are shared between requests: they are frozen, and callers get the frozen array.
 */
export type ServedSegments = readonly Readonly<FinalQuestionSegment>[];

/** Videos x companions kept per instance (least recently used leave first). */
const MAX_ENTRIES = 1000;

interface Entry {
  rev: number;
  born: string;
  segments: ServedSegments;
}

class ServedCache {
  readonly entries = new RecentMap<string, Entry>(MAX_ENTRIES);
  /** answers from the cache / selections run (tests check the cache is used) */
  hits = 0;
  loads = 0;
}

const caches = new WeakMap<Database, ServedCache>();

/** The cache of a root handle (not of a transaction's). */
function cacheOf(db: Database): ServedCache | undefined {
  if (db.inTransaction) return undefined;
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new ServedCache()));
  return cache;
}

const freeze = (segments: FinalQuestionSegment[]): ServedSegments => Object.freeze(segments.map((s) => Object.freeze(s)));

/** The served segments of (video, companion): from the cache when the revision matches, else `load()`. */
export async function servedSegments(
  db: Database,
  videoId: string,
  companion: string | null,
  load: () => Promise<FinalQuestionSegment[]>,
): Promise<ServedSegments> {
  const cache = cacheOf(db);
  if (!cache) return freeze(await load());
  const current = await questionsRevision(db, videoId);
  if (!current) {
    cache.loads++;
    return freeze(await load()); // no such video: nothing to label an entry with
  }
  const key = `${videoId}\n${companion ?? ''}`;
  const entry = cache.entries.get(key);
  if (entry && entry.rev === current.rev && entry.born === current.born) {
    cache.hits++;
    return entry.segments;
  }
  cache.loads++;
  const segments = freeze(await load());
  // a slower concurrent load of an older revision does not replace a newer entry
  const latest = cache.entries.peek(key);
  if (!latest || latest.born !== current.born || latest.rev <= current.rev) {
    cache.entries.set(key, { rev: current.rev, born: current.born, segments });
  }
  return segments;
}

/** For tests: how often this handle's cache answered and how often the selection ran. */
export function servedCacheStats(db: Database): { hits: number; loads: number; size: number } {
  const cache = cacheOf(db);
  return { hits: cache?.hits ?? 0, loads: cache?.loads ?? 0, size: cache?.entries.size ?? 0 };
}
