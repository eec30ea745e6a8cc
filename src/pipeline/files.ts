import fs from 'node:fs';
import crypto from 'node:crypto';

/** Writes a file atomically: a temp file beside it, then rename (readers never see half a file). */
export function writeAtomic(file: string, data: string | Buffer): void {
  const tmp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** A fresh, empty directory name beside `base` (same file system, so it can be renamed into place). */
export function tempSibling(base: string, label: string): string {
  return `${base}.${label}-${crypto.randomBytes(6).toString('hex')}`;
}

export function removeQuietly(target: string): void {
  try {
    fs.rmSync(target, { recursive: true, force: true });
  } catch {
    // best effort: a leftover temp dir is swept at the next start
  }
}
