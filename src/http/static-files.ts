import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';

/**
 * Serves public/ twice:
 * - under `/static/<hash>/`, where <hash> is a digest of every file in public/, with
 *   `Cache-Control: public, max-age=31536000, immutable`: a release that changes any file changes
 *   the URL of all of them. The whole folder is versioned (not each file) because the browser
 *   scripts are ES modules importing each other by relative path, so they stay on one version.
 *   Views get the prefix as the local `staticBase`.
 * - under plain `/static/` (older pages, bookmarks) with `max-age=0`, so the browser revalidates
 *   (ETag / Last-Modified) instead of keeping a stale script for an hour.
 */
export function mountStaticFiles(app: Express, publicDir: string): string {
  const staticBase = `/static/${folderDigest(publicDir)}`;
  app.locals.staticBase = staticBase;
  app.use(staticBase, express.static(publicDir, { immutable: true, maxAge: '365d', index: false }));
  app.use('/static', express.static(publicDir, { maxAge: 0, index: false }));
  return staticBase;
}

/** 12 hex digits of SHA-256 over every file's relative path and content, in a stable order. */
export function folderDigest(dir: string): string {
  const hash = crypto.createHash('sha256');
  const walk = (sub: string) => {
    const entries = fs.readdirSync(path.join(dir, sub), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const rel = path.posix.join(sub, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.isFile()) hash.update(`${rel}\0`).update(fs.readFileSync(path.join(dir, rel))).update('\0');
    }
  };
  walk('');
  return hash.digest('hex').slice(0, 12);
}
