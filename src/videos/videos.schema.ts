import { z } from 'zod';
import { expertOption } from '../accounts/accounts.schema.js';
import { expertIdSchema, videoIdSchema } from '../http/ids.js';

/** zod schemas of the video routes: inputs are validated with them, outputs documented (OpenAPI). */
export const queryBool = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .optional()
  .transform((v) => v === 'true' || v === '1');

export const videoParams = z.object({ video_id: videoIdSchema });

export const downloadBody = z.object({ url: z.string({ error: 'is required' }).min(1, 'is required').max(4096, 'is too long') });

export const downloadResult = z.object({
  success: z.boolean(),
  message: z.string(),
  video_id: z.string().optional(),
  title: z.string().optional(),
  thumbnail: z.string().optional(),
  local_path: z.string().optional(),
  subtitle_warning: z.string().optional(),
  error_code: z.string().optional(),
  recovery_hint: z.string().optional(),
  files: z.array(z.string()).optional(),
  duration: z.number().optional(),
  auth_source: z.enum(['browser', 'cookiefile', 'none']).optional(),
  used_player_client: z.array(z.string()).optional(),
});

export const frameResult = z.object({
  success: z.boolean(),
  message: z.string(),
  files: z.array(z.string()),
  video_id: z.string(),
  output_dir: z.string(),
  count: z.number().int(),
});

export const adminVideoItem = z.object({
  video_id: z.string(),
  title: z.string(),
  duration_seconds: z.number(),
  duration_formatted: z.string(),
  has_frames: z.boolean(),
  frame_count: z.number().int(),
  has_questions: z.boolean(),
  frames_dir: z.string(),
  question_file: z.string(),
});
export const adminVideosResponse = z.object({ success: z.boolean(), count: z.number().int(), videos: z.array(adminVideoItem), message: z.string().optional() });

export const videoListItem = z.object({
  id: z.string(),
  title: z.string(),
  thumbnail: z.string(),
  duration: z.number(),
  videoUrl: z.string(),
  questionCount: z.number().int(),
});
export const videosListResponse = z.object({ success: z.boolean(), videos: z.array(videoListItem), message: z.string().optional() });

export const kidsVideoItem = z.object({
  video_id: z.string(),
  title: z.string(),
  duration: z.string(),
  local_path: z.string(),
  thumbnail: z.string(),
});
export const kidsVideosResponse = z.object({ success: z.boolean(), count: z.number().int(), videos: z.array(kidsVideoItem) });

/** The richer item of the expert's and a child's lists (free-form in the contract). */
export const libraryVideo = z.object({
  video_id: z.string(),
  title: z.string(),
  duration_seconds: z.number(),
  duration_formatted: z.string(),
  thumbnail: z.string(),
  video_url: z.string(),
  has_frames: z.boolean(),
  frame_count: z.number().int(),
  has_questions: z.boolean(),
  question_count: z.number().int(),
  final_question_count: z.number().int(),
  is_sample: z.boolean(),
  assigned_to_me: z.boolean().optional(),
  claimed_by_me: z.boolean().optional(),
  claimed_by: z.string().nullable().optional(),
});
export const expertVideosResponse = z.object({ success: z.boolean(), count: z.number().int(), videos: z.array(libraryVideo) });

export const assignmentBody = z.object({ video_id: videoIdSchema, expert_id: expertIdSchema });
export const assignmentParams = z.object({ video_id: videoIdSchema, expert_id: expertIdSchema });
const expertRef = z.object({ expert_id: z.string(), expert_name: z.string() });
/** one per downloaded video (the original service's shape, which its admin page reads) */
export const assignmentItem = z.object({
  video_id: z.string(),
  title: z.string(),
  is_sample: z.boolean(),
  assigned_experts: z.array(expertRef.extend({ assigned_at: z.string() })),
  claimed_by: expertRef.nullable(),
});
export const claimItem = z.object({ video_id: z.string(), expert_id: z.string(), expert_name: z.string(), title: z.string(), claimed_at: z.string() });
export const assignmentsResponse = z.object({
  success: z.boolean(),
  /** number of videos listed */
  count: z.number().int(),
  assignments: z.array(assignmentItem),
  claims: z.array(claimItem),
  experts: z.array(expertOption),
});
export const actionResponse = z.object({ success: z.boolean(), message: z.string(), video_id: z.string(), expert_id: z.string() });
