import type { AppContext } from '../context.js';
import { DEMO_EXPERT_ID } from '../accounts/demo-seed.js';
import { SAMPLE_DIR, importSample } from './sample.service.js';

/**
 * The bundled sample (sample/, built by scripts/make-sample.mjs): imported on start when
 * SAMPLE_IMPORT is on and the video or any of its files is missing, so a fresh install with no
 * keys has one playable video with reviewed questions for every companion, assigned to the demo
 * expert (so the demo family plays it). A sample an admin deleted stays deleted. A broken sample
 * is logged and never stops the server from starting.
 */
export function registerSample(ctx: AppContext): void {
  const log = ctx.logger.child({ module: 'sample' });
  ctx.onStart(async () => {
    if (!ctx.config.SAMPLE_IMPORT) return;
    try {
      // Accounts start first: on a first start the demo family exists by now and gets the sample.
      const r = await importSample(ctx.db, ctx.config.dataDir, SAMPLE_DIR, ctx.config.DEMO_SEED ? DEMO_EXPERT_ID : null);
      if (r.deleted) {
        log.info({ video_id: r.video_id }, 'bundled sample video was deleted by an admin: not re-imported');
      } else if (r.copied || r.inserted) {
        log.info(
          { video_id: r.video_id, copied: r.copied, inserted: r.inserted, assigned_to: r.assigned_to, segments: r.questions?.segments, variants: r.questions?.variants },
          'bundled sample video imported',
        );
      } else {
        log.debug({ video_id: r.video_id }, 'bundled sample video already in place');
      }
    } catch (err) {
      log.error({ err }, 'the bundled sample could not be imported');
    }
  });
}
