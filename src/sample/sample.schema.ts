import { z } from 'zod';
import { videoIdSchema } from '../http/ids.js';

/**
 * `sample/manifest.json`, written by scripts/make-sample.mjs: what the bundled sample is and
 * every file of `sample/media/` with its size and SHA-256 (a corrupt checkout is refused, not
 * copied). Read once at start and validated like any other input.
 */

/** a relative path of plain names: no '..', no absolute paths, no backslashes */
const relativePath = z
  .string()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*(\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/, 'must be a relative path of plain names')
  .refine((p) => !p.split('/').some((part) => part === '..' || part === '.'), 'must not contain . or ..');

export const sampleManifestSchema = z.object({
  video_id: videoIdSchema,
  title: z.string().trim().min(1).max(200),
  duration_seconds: z.number().positive().max(3600),
  frame_count: z.number().int().min(0).max(3600),
  files: z.object({
    video: relativePath,
    thumbnail: relativePath,
    subtitles: relativePath,
    info: relativePath,
    frames_dir: relativePath,
  }),
  segments: z.array(z.object({ start: z.number().int().min(0), end: z.number().int().positive(), scene: z.string() })).min(1),
  checksums: z
    .record(relativePath, z.object({ bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) }))
    .refine((c) => Object.keys(c).length > 0, 'lists no files'),
});

export type SampleManifest = z.infer<typeof sampleManifestSchema>;
