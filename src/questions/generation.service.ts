import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { Providers } from '../ai/providers.js';
import { ProviderError, classifyError } from '../ai/errors.js';
import type { QuestionProvider } from '../ai/types.js';
import type { GenerationEvent, GenerationRequest } from './generation.schema.js';
import { buildSegmentInput, loadVideoSource, planSegments } from './segment-input.js';
import { mediaStore } from '../storage/index.js';
import { dropOverlappingSegments, finishedSegmentKeys, segmentKey, storeGeneratedSegment, storeSegmentError } from './segments.repository.js';
import { videoForQuestions, type SegmentKey } from './review.repository.js';

export interface GenerationDeps {
  config: Config;
  db: Database;
  logger: Logger;
  providers: Providers;
}

/** A fatal problem before any segment runs: sent as an `error` event. */
export class RunRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One generation run for a video: plans the segments, skips those already generated (unless
 * `regenerate`), asks the provider for each with at most GENERATION_CONCURRENCY calls in flight,
 * stores each result the moment it arrives and reports it through `emit`. Aborting `signal`
 * (the socket closed) cancels the calls in flight; everything stored stays stored.
 */
export async function runGeneration(
  deps: GenerationDeps,
  videoId: string,
  req: GenerationRequest,
  emit: (e: GenerationEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const started = Date.now();
  const log = deps.logger.child({ module: 'generation', video_id: videoId });
  if (!(await videoForQuestions(deps.db, videoId))) throw new RunRefused('video_not_found', `Video ${videoId} was not found.`);
  const src = await loadVideoSource(deps.db, mediaStore(deps.config), videoId);
  if (!src) throw new RunRefused('no_frames', 'This video has no frames yet: extract frames first (POST /api/frames/{video_id}).');
  let provider: QuestionProvider;
  try {
    provider = deps.providers.get(req.provider);
  } catch (err) {
    const e = classifyError(req.provider ?? 'default', err);
    throw new RunRefused(`provider_${e.code}`, e.message);
  }
  const planned = planSegments(req, src.durationSeconds);
  if (planned.length === 0) {
    throw new RunRefused('nothing_to_generate', `start_seconds is past the end of the video (${src.durationSeconds} s).`);
  }
  await dropOverlappingSegments(deps.db, videoId, planned);
  const finished = req.regenerate ? new Set<string>() : await finishedSegmentKeys(deps.db, videoId);
  const pending = planned.filter((s) => !finished.has(segmentKey(s)));
  const skipped = planned.length - pending.length;
  const counts = { done: 0, failed: 0 };
  const base = { video_id: videoId, provider: provider.name, model: provider.model, total: planned.length, skipped };
  const status = (phase: 'started' | 'progress', message: string) =>
    emit({ type: 'status', phase, message, ...base, done: counts.done + skipped, failed: counts.failed });

  status('started', `Generating ${pending.length} of ${planned.length} segment(s) with ${provider.name}` + (skipped ? ` (${skipped} already done)` : '') + '.');
  log.info({ provider: provider.name, total: planned.length, pending: pending.length }, 'generation started');

  const runOne = async (seg: SegmentKey, index: number): Promise<void> => {
    const common = { type: 'segment_result' as const, video_id: videoId, segment_range_start: seg.start, segment_range_end: seg.end, provider: provider.name, index, total: planned.length };
    try {
      const input = await buildSegmentInput(src, seg, {
        withFrames: provider.name !== 'builtin',
        ffmpegPath: deps.config.FFMPEG_PATH,
        store: mediaStore(deps.config),
        signal,
        logger: log,
      });
      const questions = await provider.generateSegment(input, { signal });
      if (signal.aborted) return;
      const result = { segment_range_start: seg.start, segment_range_end: seg.end, provider: provider.name, model: provider.model, questions };
      await storeGeneratedSegment(deps.db, videoId, result);
      counts.done++;
      emit({ ...common, ok: true, result });
    } catch (raw) {
      if (signal.aborted) return;
      const err = raw instanceof ProviderError ? raw : classifyError(provider.name, raw, signal);
      if (err.code === 'aborted') return;
      await storeSegmentError(deps.db, videoId, seg, err.toJSON(), provider.model);
      counts.done++;
      counts.failed++;
      log.warn({ segment: segmentKey(seg), error_code: err.code }, 'segment failed');
      emit({ ...common, ok: false, error: err.toJSON() });
    }
    status('progress', `${counts.done + skipped} of ${planned.length} segment(s) done` + (counts.failed ? `, ${counts.failed} failed` : '') + '.');
  };

  await pool(
    pending.map((seg) => () => runOne(seg, planned.indexOf(seg))),
    deps.config.GENERATION_CONCURRENCY,
    signal,
  );
  if (signal.aborted) {
    log.info({ done: counts.done }, 'generation cancelled');
    return;
  }
  const generated = counts.done - counts.failed;
  emit({
    type: 'done',
    ...base,
    generated,
    failed: counts.failed,
    duration_ms: Date.now() - started,
    message: `Generated ${generated} segment(s)` + (counts.failed ? `, ${counts.failed} failed` : '') + (skipped ? `, ${skipped} skipped` : '') + '.',
  });
  log.info({ generated, failed: counts.failed, skipped }, 'generation done');
}

/** Runs tasks with at most `limit` at a time; stops starting new ones once `signal` aborts. */
export async function pool(tasks: (() => Promise<void>)[], limit: number, signal: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length && !signal.aborted) {
      const task = tasks[next++]!;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}
