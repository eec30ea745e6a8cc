// The contract's response shapes the browser scripts under public/ read, for their JSDoc types
// (`/** @type {KvqApi.Session} */`). Global on purpose: public/ scripts are plain ES modules
// served as they are, with no build step to resolve type imports. The server's zod schemas are
// the truth (docs: /work/shared/spec/interface-spec.md, /api/openapi.json); these follow them.
declare namespace KvqApi {
  type Companion = 'bunny' | 'pig' | 'alligator';
  type InteractionMode = 'strict' | 'flexible' | 'passive';

  /** A child as the tablet session lists it (GET /api/learners/session). */
  interface SessionChild {
    child_id: string;
    first_name: string;
    last_name?: string | null;
    icon_key: string;
    interaction_mode: InteractionMode;
  }

  /** GET /api/learners/session */
  interface Session {
    success: boolean;
    role: 'child';
    parent?: { parent_id: string; display_name: string } | null;
    children: SessionChild[];
    child: SessionChild | null;
    companion: Companion | null;
  }

  /** GET /api/config: what the player needs (the schema allows more keys). */
  interface PlayerConfig {
    skip_prevention: boolean;
    thresholds: Record<string, unknown>;
    answer_time_limit_seconds?: number;
    max_silent_retries?: number;
    max_strict_replays?: number;
    silence_seconds?: number;
    interaction_modes?: InteractionMode[];
    ai_judge?: boolean;
  }

  /** One served question (GET /api/final-questions/{video_id}). */
  interface FinalSegment {
    segment_range_start: number;
    segment_range_end: number;
    question: string;
    answer: string;
    llm_ranking: number;
    expert_ranking: number;
    question_type: string;
    question_id: number;
    companion: Companion | null;
  }

  /** GET /api/final-questions/{video_id} */
  interface FinalQuestions {
    success: boolean;
    video_id?: string;
    companion?: Companion | null;
    segments: FinalSegment[];
    error?: string;
  }

  /** POST /api/check_answer (and the player's offline stand-in, which adds `reason`). */
  interface Grade {
    similarity: number;
    expected: string;
    user: string;
    status: 'correct' | 'almost' | 'wrong';
    is_numeric?: boolean;
    reason?: string;
  }

  /** POST /api/transcribe */
  interface Transcription {
    success: boolean;
    text?: string;
    error?: string;
  }

  /**
   * A video on the kids' grid (GET /api/kids_videos, /api/learners/children/{id}/videos); the
   * player's preview also reads the staff listing (GET /api/videos-list), hence `id`, `videoUrl`.
   */
  interface KidsVideo {
    video_id: string;
    title: string;
    duration?: string;
    local_path: string;
    thumbnail: string;
    id?: string;
    videoUrl?: string;
  }

  interface KidsVideos {
    success: boolean;
    count?: number;
    videos: KidsVideo[];
  }

  /** The contract's error body (any 4xx/5xx). */
  interface ErrorBody {
    success?: false;
    message?: string;
    error?: string;
    error_code?: string;
    detail?: unknown;
    request_id?: string;
  }
}
