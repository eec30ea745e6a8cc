import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { LocalMediaStore } from './local.store.js';
import { S3MediaStore } from './s3.store.js';
import { assertKey, type MediaStore } from './media-store.js';

export type { MediaStore } from './media-store.js';
export { LocalMediaStore } from './local.store.js';
export { S3MediaStore } from './s3.store.js';

/** Picks the store from the settings: S3_BUCKET set → the bucket, else DATA_DIR. */
export function createMediaStore(
  config: Pick<Config, 'dataDir' | 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_FORCE_PATH_STYLE' | 'S3_PREFIX'>,
): MediaStore {
  if (!config.S3_BUCKET) return new LocalMediaStore(config.dataDir);
  return new S3MediaStore({
    bucket: config.S3_BUCKET,
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    prefix: config.S3_PREFIX,
  });
}

/**
 * One store per loaded configuration (the server loads one; each test app its own), made on
 * first use, so features reach it from the config they already get without new wiring.
 */
const stores = new WeakMap<Config, MediaStore>();
export function mediaStore(config: Config): MediaStore {
  let s = stores.get(config);
  if (!s) {
    s = createMediaStore(config);
    stores.set(config, s);
  }
  return s;
}

/** Closes the configuration's store (its S3 connections), if one was made. */
export function closeMediaStore(config: Config): void {
  stores.get(config)?.close();
  stores.delete(config);
}

export interface UploadSummary {
  /** keys written */
  uploaded: string[];
  /** files that are not media keys (dot-files, temp files, odd names): left out */
  skipped: string[];
  bytes: number;
}

/**
 * Uploads an existing media folder (a school's DATA_DIR, whose `videos/` holds the media) to the
 * store under the same keys, for `npm run db:to-postgres` with S3_BUCKET set. Temp and dot-files
 * are skipped; each upload is verified by its size in the store. Safe to run again: it rewrites
 * the same keys. Throws on the first failure (nothing is deleted locally).
 */
export async function uploadMediaFolder(
  store: MediaStore,
  dataDir: string,
  opts: { onFile?: (key: string, bytes: number) => void } = {},
): Promise<UploadSummary> {
  const summary: UploadSummary = { uploaded: [], skipped: [], bytes: 0 };
  const root = path.join(dataDir, 'videos');
  if (!fs.existsSync(root)) return summary;
  const walk = async (dir: string, rel: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const key = `${rel}${e.name}`;
      if (e.name.startsWith('.')) {
        summary.skipped.push(key);
        continue;
      }
      if (e.isDirectory()) {
        await walk(path.join(dir, e.name), `${key}/`);
        continue;
      }
      if (!e.isFile() || !isKey(key) || e.name.endsWith('.tmp')) {
        summary.skipped.push(key);
        continue;
      }
      const file = path.join(dir, e.name);
      const size = fs.statSync(file).size;
      await store.putFile(key, file);
      const st = await store.stat(key);
      if (!st || st.size !== size) throw new Error(`upload of ${key} could not be verified (${size} bytes here, ${st?.size ?? 'none'} in the store)`);
      summary.uploaded.push(key);
      summary.bytes += size;
      opts.onFile?.(key, size);
    }
  };
  await walk(root, 'videos/');
  return summary;
}

function isKey(key: string): boolean {
  try {
    assertKey(key);
    return true;
  } catch {
    return false;
  }
}
