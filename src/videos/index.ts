import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { removeQuietly } from '../pipeline/files.js';
import { videosRoot } from '../pipeline/paths.js';
import { closeMediaStore, mediaStore } from '../storage/index.js';
import { videoPrefix } from '../storage/keys.js';
import { registerAssignmentRoutes } from './assignments.routes.js';
import { registerLibraryRoutes } from './library.routes.js';
import { registerMediaRoutes } from './media.routes.js';
import { registerPipelineRoutes } from './pipeline.routes.js';
import type { JobHandlerContext } from './pipeline.jobs.js';
import { clearLocks, removeInterruptedDownloads } from './videos.repository.js';

/** Videos: download and frames (admin), the lists every role sees, assignments and claims, media files. */
export function registerVideos(ctx: AppContext): void {
  // downloads and extractions run as jobs: their handlers and the start-up recovery are in
  // pipeline.jobs.ts, registered by the process that works jobs (src/jobs/handlers.ts)
  registerPipelineRoutes(ctx);
  registerLibraryRoutes(ctx);
  registerAssignmentRoutes(ctx);
  registerMediaRoutes(ctx);
  // the media store's connections (S3 client) go with the app
  ctx.onClose(() => closeMediaStore(ctx.config));
}

/**
 * No job survives the process (the job queue marks the ones left running failed): forget their locks, drop rows of first downloads that never
 * finished, and sweep temp dirs (downloads in `videos/.incoming*`, frames in
 * `videos/<id>/.frames*`, half-deleted frame sets `videos/<id>/.deleted-*`). Temp work happens under DATA_DIR even with a bucket, so this sweep
 * covers it; objects a first download may have put before its row was saved are removed too.
 */
export async function recoverAfterRestart(ctx: JobHandlerContext): Promise<void> {
  await clearLocks(ctx.db);
  const root = videosRoot(ctx.config.dataDir);
  const interrupted = await removeInterruptedDownloads(ctx.db);
  const store = mediaStore(ctx.config);
  if (store.kind !== 'local') {
    for (const id of interrupted) await store.deletePrefix(videoPrefix(id)).catch((err: Error) => ctx.logger.warn({ videoId: id, err: err.message }, 'could not remove objects of an interrupted download'));
  }
  if (!fs.existsSync(root)) return;
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const full = path.join(root, entry.name);
    if (entry.name.startsWith('.incoming')) {
      removeQuietly(full);
      continue;
    }
    if (interrupted.includes(entry.name)) {
      removeQuietly(full);
      continue;
    }
    // `.frames*`: extraction work and staged sets; `.deleted-*`: a frame set whose removal was cut short
    for (const sub of fs.readdirSync(full)) if (sub.startsWith('.frames') || sub.startsWith('.deleted-')) removeQuietly(path.join(full, sub));
  }
  if (interrupted.length) ctx.logger.warn({ videos: interrupted }, 'removed downloads interrupted by a restart');
}
