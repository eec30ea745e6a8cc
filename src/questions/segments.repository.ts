import type { Db } from '../db/database.js';
import { generatedQuestionListSchema, type GeneratedSegment, type ProviderErrorInfo } from './questions.schema.js';
import { seedFromGenerated, segmentHasExpertWork, type SegmentKey } from './review.repository.js';

/** SQL for AI results per segment (table question_segments). */

export type StoredSegment =
  | { status: 'ok'; start: number; end: number; provider: string; model: string | null; generatedAt: string; result: GeneratedSegment }
  | { status: 'error'; start: number; end: number; provider: string; model: string | null; generatedAt: string; error: ProviderErrorInfo };

interface Row {
  start_seconds: number;
  end_seconds: number;
  status: 'ok' | 'error';
  provider: string;
  model: string | null;
  questions_json: string | null;
  error_code: string | null;
  error_message: string | null;
  generated_at: string;
}

export function listGeneratedSegments(db: Db, videoId: string): StoredSegment[] {
  return db
    .allSync<Row>(
      `SELECT start_seconds, end_seconds, status, provider, model, questions_json, error_code, error_message, generated_at
         FROM question_segments WHERE video_id = ? ORDER BY start_seconds, end_seconds`,
      [videoId],
    )
    .map(toStored);
}

/** Ranges already generated successfully (a re-run skips them unless asked to regenerate). */
export function finishedSegmentKeys(db: Db, videoId: string): Set<string> {
  const rows = db.allSync<{ start_seconds: number; end_seconds: number }>(
    `SELECT start_seconds, end_seconds FROM question_segments WHERE video_id = ? AND status = 'ok'`,
    [videoId],
  );
  return new Set(rows.map((r) => segmentKey({ start: r.start_seconds, end: r.end_seconds })));
}

export const segmentKey = (s: SegmentKey): string => `${s.start}-${s.end}`;

/**
 * Stores one segment's AI result and, in the same transaction, refreshes the segment's review set
 * when no expert has worked on it yet. Returns whether the review set was refreshed.
 */
export function storeGeneratedSegment(db: Db, videoId: string, result: GeneratedSegment): boolean {
  return db.transactionSync(() => {
    db.runSync(
      `INSERT INTO question_segments (video_id, start_seconds, end_seconds, status, provider, model, questions_json)
       VALUES (?, ?, ?, 'ok', ?, ?, ?)
       ON CONFLICT (video_id, start_seconds, end_seconds) DO UPDATE SET status = 'ok', provider = excluded.provider,
         model = excluded.model, questions_json = excluded.questions_json, error_code = NULL, error_message = NULL,
         generated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
      [videoId, result.segment_range_start, result.segment_range_end, result.provider, result.model, JSON.stringify(result.questions)],
    );
    return seedFromGenerated(db, videoId, result);
  });
}

/** Records a failed segment, unless an earlier run already generated it (a good result is kept). */
export function storeSegmentError(db: Db, videoId: string, seg: SegmentKey, error: ProviderErrorInfo, model: string | null): void {
  db.runSync(
    `INSERT INTO question_segments (video_id, start_seconds, end_seconds, status, provider, model, error_code, error_message)
     VALUES (?, ?, ?, 'error', ?, ?, ?, ?)
     ON CONFLICT (video_id, start_seconds, end_seconds) DO UPDATE SET provider = excluded.provider, model = excluded.model,
       error_code = excluded.error_code, error_message = excluded.error_message,
       generated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
     WHERE question_segments.status = 'error'`,
    [videoId, seg.start, seg.end, error.provider, model, error.code, error.message],
  );
}

/**
 * Drops AI results (and untouched review sets) that overlap the planned segments without
 * matching one exactly: a run with a new interval replaces the old segmentation. Segments an
 * expert worked on are kept.
 */
export function dropOverlappingSegments(db: Db, videoId: string, planned: SegmentKey[]): number {
  const plannedKeys = new Set(planned.map(segmentKey));
  const overlaps = (a: SegmentKey) => planned.some((p) => a.start < p.end && p.start < a.end);
  let dropped = 0;
  db.transactionSync(() => {
    const rows = db.allSync<{ start_seconds: number; end_seconds: number }>(
      `SELECT start_seconds, end_seconds FROM question_segments WHERE video_id = ?
       UNION SELECT start_seconds, end_seconds FROM review_segments WHERE video_id = ?`,
      [videoId, videoId],
    );
    for (const r of rows) {
      const seg = { start: r.start_seconds, end: r.end_seconds };
      if (plannedKeys.has(segmentKey(seg)) || !overlaps(seg)) continue;
      if (segmentHasExpertWork(db, videoId, seg)) continue;
      db.runSync('DELETE FROM question_segments WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?', [videoId, seg.start, seg.end]);
      db.runSync('DELETE FROM review_segments WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?', [videoId, seg.start, seg.end]);
      dropped++;
    }
  });
  return dropped;
}

function toStored(r: Row): StoredSegment {
  const base = { start: r.start_seconds, end: r.end_seconds, provider: r.provider, model: r.model, generatedAt: r.generated_at };
  if (r.status === 'ok') {
    const questions = generatedQuestionListSchema.parse(JSON.parse(r.questions_json ?? '[]'));
    return {
      ...base,
      status: 'ok',
      result: { segment_range_start: base.start, segment_range_end: base.end, provider: r.provider, model: r.model, questions },
    };
  }
  return {
    ...base,
    status: 'error',
    error: { code: r.error_code ?? 'unknown', message: r.error_message ?? '', retryable: true, provider: r.provider },
  };
}
