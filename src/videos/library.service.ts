import type { Database } from '../db/database.js';
import type { MediaStore } from '../storage/media-store.js';
import { framesPrefix } from '../storage/keys.js';
import { formatDuration } from '../pipeline/subtitles.js';
import { questionCountsByVideo } from '../questions/counts.js';
import type { z } from 'zod';
import type { adminVideoItem, kidsVideoItem, libraryVideo, videoListItem } from './videos.schema.js';
import { mediaUrls } from './media-urls.js';
import type { Video } from './videos.repository.js';

/**
 * Shapes video rows into the contract's list items. Question counts come from the questions
 * feature (one query per listing). `questionCount` is what a child gets: the finalized
 * questions, or, before anything is finalized, the generated questions waiting for review.
 */
export type QuestionCounts = Map<string, { generated: number; final: number }>;

export const loadQuestionCounts = async (db: Database): Promise<QuestionCounts> => questionCountsByVideo(db);

const countsOf = (counts: QuestionCounts, id: string) => counts.get(id) ?? { generated: 0, final: 0 };

/**
 * `frames_dir` says where the frames are: a folder under DATA_DIR, or s3://bucket/…/ with
 * S3_BUCKET; `question_file` where the questions export is (`exports`, from
 * questionExportLocations), or '' when there is none.
 */
export function adminItem(v: Video, counts: QuestionCounts, store: MediaStore, exports: ReadonlyMap<string, string>): z.infer<typeof adminVideoItem> {
  const c = countsOf(counts, v.id);
  return {
    video_id: v.id,
    title: v.title,
    duration_seconds: v.durationSeconds,
    duration_formatted: formatDuration(v.durationSeconds),
    has_frames: v.frameCount > 0,
    frame_count: v.frameCount,
    has_questions: c.generated + c.final > 0,
    frames_dir: v.frameCount > 0 ? store.location(framesPrefix(v.id, v.framesSet)) : '',
    question_file: exports.get(v.id) ?? '',
  };
}

export function listItem(v: Video, counts: QuestionCounts): z.infer<typeof videoListItem> {
  const c = countsOf(counts, v.id);
  const urls = mediaUrls(v.id);
  return {
    id: v.id,
    title: v.title,
    thumbnail: v.thumbnailFile ? urls.thumbnail : '',
    duration: v.durationSeconds,
    videoUrl: urls.video,
    questionCount: c.final > 0 ? c.final : c.generated,
  };
}

export function kidsItem(v: Video): z.infer<typeof kidsVideoItem> {
  const urls = mediaUrls(v.id);
  return {
    video_id: v.id,
    title: v.title,
    duration: formatDuration(v.durationSeconds),
    local_path: urls.video,
    thumbnail: v.thumbnailFile ? urls.thumbnail : '',
  };
}

export function libraryItem(
  v: Video,
  counts: QuestionCounts,
  rel?: { expertId: string; assigned: Set<string>; claims: Map<string, string> },
): z.infer<typeof libraryVideo> {
  const c = countsOf(counts, v.id);
  const urls = mediaUrls(v.id);
  const item: z.infer<typeof libraryVideo> = {
    video_id: v.id,
    title: v.title,
    duration_seconds: v.durationSeconds,
    duration_formatted: formatDuration(v.durationSeconds),
    thumbnail: v.thumbnailFile ? urls.thumbnail : '',
    video_url: urls.video,
    has_frames: v.frameCount > 0,
    frame_count: v.frameCount,
    has_questions: c.generated + c.final > 0,
    question_count: c.generated,
    final_question_count: c.final,
    is_sample: v.isSample,
  };
  if (rel) {
    const owner = rel.claims.get(v.id) ?? null;
    item.assigned_to_me = rel.assigned.has(v.id);
    item.claimed_by_me = owner === rel.expertId;
    item.claimed_by = owner;
  }
  return item;
}
