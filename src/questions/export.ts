import type { Database } from '../db/database.js';
import { COMPANIONS } from '../config.js';
import type { MediaStore } from '../storage/media-store.js';
import { FRAMES_DELIMITER, VIDEOS_PREFIX, videoKey } from '../storage/keys.js';
import { VIDEO_ID_RE } from '../http/ids.js';
import { QUESTION_EXPORT_FILE } from './counts.js';
import { finalQuestions } from './final.service.js';
import { listReviewQuestions, listReviewSegments } from './review.repository.js';
import { listVariants } from './variants.repository.js';
import { listGeneratedSegments } from './segments.repository.js';

export interface ExportResult {
  file_path: string;
  file_url: string;
}

/** The URL that serves a video's export (GET route in questions.routes.ts). */
export const questionExportUrl = (videoId: string): string => `/api/questions-export/${encodeURIComponent(videoId)}`;

/** A snapshot of everything the database holds about a video's questions (the DB stays authoritative). */
export async function buildQuestionExport(db: Database, videoId: string): Promise<Record<string, unknown>> {
  const questions = await listReviewQuestions(db, videoId);
  const variants = await listVariants(db, videoId);
  const final: [string, unknown][] = [['base', await finalQuestions(db, videoId, null)]];
  for (const c of COMPANIONS) final.push([c, await finalQuestions(db, videoId, c)]);
  return {
    video_id: videoId,
    exported_at: new Date().toISOString(),
    generated: (await listGeneratedSegments(db, videoId)).map((s) =>
      s.status === 'ok'
        ? { segment_range_start: s.start, segment_range_end: s.end, status: 'ok', provider: s.provider, model: s.model, questions: s.result.questions }
        : { segment_range_start: s.start, segment_range_end: s.end, status: 'error', provider: s.provider, model: s.model, error: s.error },
    ),
    review: (await listReviewSegments(db, videoId)).map((seg) => ({
      segment_range_start: seg.start,
      segment_range_end: seg.end,
      finalized: seg.finalized,
      questions: questions
        .filter((q) => q.segment_range_start === seg.start && q.segment_range_end === seg.end)
        .map((q) => ({ ...q, variants: variants.filter((v) => v.question_id === q.id) })),
    })),
    final: Object.fromEntries(final),
  };
}

/** The export's media key: `videos/<id>/questions.json`, beside the video's media, in the media store. */
export const questionExportKey = (videoId: string): string => videoKey(videoId, QUESTION_EXPORT_FILE);

/**
 * Writes the export through the media store (DATA_DIR/videos/<id>/questions.json, or the bucket
 * with S3_BUCKET), so every instance serves the same file: one atomic write either way (temp
 * file + rename on disk, one PUT in a bucket). The database stays authoritative; this is a copy.
 */
export async function writeQuestionExport(db: Database, store: MediaStore, videoId: string): Promise<ExportResult> {
  const key = questionExportKey(videoId);
  // one transaction: a consistent snapshot even while an expert saves
  const content = JSON.stringify(await db.transaction((tx) => buildQuestionExport(tx, videoId)), null, 2);
  await store.putBuffer(key, content);
  return { file_path: store.location(key), file_url: questionExportUrl(videoId) };
}

/** The export as stored (a Buffer of JSON), or null when none was written (or the id is not one). */
export async function readQuestionExport(store: MediaStore, videoId: string): Promise<Buffer | null> {
  if (!VIDEO_ID_RE.test(videoId)) return null;
  return store.getBuffer(questionExportKey(videoId));
}

/**
 * Where each of these videos' export is (`question_file` of the admin list: a path, or
 * s3://bucket/key), for the videos that have one. ONE listing of `videos/` finds them all (with
 * S3 one ListObjectsV2 page per ~1000 files beside the videos; a HEAD per video was one round
 * trip each on every admin list): the frame sets are folded by the delimiter, so thousands of
 * frames cost one entry per set. No listing at all when no video is asked about.
 */
export async function questionExportLocations(store: MediaStore, videoIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const ids = videoIds.filter((id) => VIDEO_ID_RE.test(id));
  if (ids.length === 0) return out;
  const keys = new Set(await store.list(VIDEOS_PREFIX, { delimiter: FRAMES_DELIMITER }));
  for (const id of ids) {
    const key = questionExportKey(id);
    if (keys.has(key)) out.set(id, store.location(key));
  }
  return out;
}
