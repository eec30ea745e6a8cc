import type { Database } from '../db/database.js';
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

export async function listGeneratedSegments(db: Database, videoId: string): Promise<StoredSegment[]> {
  const rows = await db.all<Row>(
    `SELECT start_seconds, end_seconds, status, provider, model, questions_json, error_code, error_message, generated_at
       FROM question_segments WHERE video_id = ? ORDER BY start_seconds, end_seconds`,
    [videoId],
  );
  return rows.map(toStored);
}

/** Ranges already generated successfully (a re-run skips them unless asked to regenerate). */
export async function finishedSegmentKeys(db: Database, videoId: string): Promise<Set<string>> {
  const rows = await db.all<{ start_seconds: number; end_seconds: number }>(
    `SELECT start_seconds, end_seconds FROM question_segments WHERE video_id = ? AND status = 'ok'`,
    [videoId],
  );
  return new Set(rows.map((r) => segmentKey({ start: r.start_seconds, end: r.end_seconds })));
}

export const segmentKey = (s: SegmentKey): string => `${s.start}-${s.end}`;

/**
 * AI questions per video over its successfully generated segments. The lists are stored as
 * JSON text and counted here (JSON functions differ between the engines).
 */
export async function generatedQuestionCounts(db: Database): Promise<Map<string, number>> {
  const rows = await db.all<{ video_id: string; questions_json: string | null }>(
    `SELECT video_id, questions_json FROM question_segments WHERE status = 'ok'`,
  );
  const out = new Map<string, number>();
  for (const r of rows) {
    const list: unknown = r.questions_json ? JSON.parse(r.questions_json) : [];
    out.set(r.video_id, (out.get(r.video_id) ?? 0) + (Array.isArray(list) ? list.length : 0));
  }
  return out;
}

/**
 * Stores one segment's AI result and, in the same transaction, refreshes the segment's review set
 * when no expert has worked on it yet. Returns whether the review set was refreshed.
 */
export async function storeGeneratedSegment(db: Database, videoId: string, result: GeneratedSegment): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.run(
      `INSERT INTO question_segments (video_id, start_seconds, end_seconds, status, provider, model, questions_json)
       VALUES (?, ?, ?, 'ok', ?, ?, ?)
       ON CONFLICT (video_id, start_seconds, end_seconds) DO UPDATE SET status = 'ok', provider = excluded.provider,
         model = excluded.model, questions_json = excluded.questions_json, error_code = NULL, error_message = NULL,
         generated_at = ?`,
      [videoId, result.segment_range_start, result.segment_range_end, result.provider, result.model, JSON.stringify(result.questions), new Date().toISOString()],
    );
    return seedFromGenerated(tx, videoId, result);
  });
}

/** Records a failed segment, unless an earlier run already generated it (a good result is kept). */
export async function storeSegmentError(db: Database, videoId: string, seg: SegmentKey, error: ProviderErrorInfo, model: string | null): Promise<void> {
  await db.run(
    `INSERT INTO question_segments (video_id, start_seconds, end_seconds, status, provider, model, error_code, error_message)
     VALUES (?, ?, ?, 'error', ?, ?, ?, ?)
     ON CONFLICT (video_id, start_seconds, end_seconds) DO UPDATE SET provider = excluded.provider, model = excluded.model,
       error_code = excluded.error_code, error_message = excluded.error_message, generated_at = ?
     WHERE question_segments.status = 'error'`,
    [videoId, seg.start, seg.end, error.provider, model, error.code, error.message, new Date().toISOString()],
  );
}

/**
 * Drops AI results (and untouched review sets) that overlap the planned segments without
 * matching one exactly: a run with a new interval replaces the old segmentation. Segments an
 * expert worked on are kept.
 */
export async function dropOverlappingSegments(db: Database, videoId: string, planned: SegmentKey[]): Promise<number> {
  const plannedKeys = new Set(planned.map(segmentKey));
  const overlaps = (a: SegmentKey) => planned.some((p) => a.start < p.end && p.start < a.end);
  return db.transaction(async (tx) => {
    let dropped = 0;
    const rows = await tx.all<{ start_seconds: number; end_seconds: number }>(
      `SELECT start_seconds, end_seconds FROM question_segments WHERE video_id = ?
       UNION SELECT start_seconds, end_seconds FROM review_segments WHERE video_id = ?
       ORDER BY start_seconds, end_seconds`,
      [videoId, videoId],
    );
    for (const r of rows) {
      const seg = { start: r.start_seconds, end: r.end_seconds };
      if (plannedKeys.has(segmentKey(seg)) || !overlaps(seg)) continue;
      if (await segmentHasExpertWork(tx, videoId, seg)) continue;
      await tx.run('DELETE FROM question_segments WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?', [videoId, seg.start, seg.end]);
      await tx.run('DELETE FROM review_segments WHERE video_id = ? AND start_seconds = ? AND end_seconds = ?', [videoId, seg.start, seg.end]);
      dropped++;
    }
    return dropped;
  });
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
