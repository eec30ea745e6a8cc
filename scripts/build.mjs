// `npm run build`: src/**/*.ts -> dist/**/*.js, one file per source file (not bundled), so every
// path a module resolves from its own location (`import.meta.url`: views/, public/, sample/ two
// levels up, db/migrations/, speech/vocabulary/) stays the same under dist/. Files that are not
// TypeScript (SQL migrations, word lists) are copied beside their modules.
// esbuild only strips types (about a second); `tsc --noEmit` in `npm test` checks them.
// Imported by scripts/start.mjs, which builds only when a source is newer than the last build.
// Entry points: dist/server.js (`npm start`) and dist/worker.js (`npm run worker`, jobs only);
// every module is built, so both are always there.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './ensure.mjs';

export const SRC = path.join(ROOT, 'src');
export const DIST = path.join(ROOT, 'dist');
/** written last: its mtime is the build's time, its presence says the build finished */
const STAMP = '.build-stamp';

/** true when dist/ is missing, unfinished, or older than any file under src/ (or the lock file). */
export function buildIsStale() {
  let built;
  try {
    built = fs.statSync(path.join(DIST, STAMP)).mtimeMs;
  } catch {
    return true;
  }
  if (fs.statSync(path.join(ROOT, 'package-lock.json')).mtimeMs > built) return true;
  // folders too: deleting or renaming a source changes only its folder's mtime
  return [SRC, ...walk(SRC, true)].some((p) => fs.statSync(p).mtimeMs > built);
}

/**
 * Builds into a fresh folder beside dist/ and swaps it in with renames, so a running server
 * never sees a half-written dist/ and files deleted from src/ do not linger in it.
 */
export async function build() {
  const { build: esbuild } = await import('esbuild');
  const started = Date.now();
  const tmp = `${DIST}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const files = walk(SRC);
  const entryPoints = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  await esbuild({
    entryPoints,
    outdir: tmp,
    outbase: SRC,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  for (const file of files.filter((f) => !f.endsWith('.ts'))) {
    const target = path.join(tmp, path.relative(SRC, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(file, target);
  }
  fs.writeFileSync(path.join(tmp, STAMP), `${new Date().toISOString()}\n`);
  // Two builds at once (npm start while a test builds) may both swap: whoever renames last wins,
  // and each clears what it moved aside.
  const old = `${DIST}.old-${process.pid}`;
  for (let attempt = 0; ; attempt++) {
    try {
      if (fs.existsSync(DIST)) fs.renameSync(DIST, old);
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    try {
      fs.renameSync(tmp, DIST);
      break;
    } catch (err) {
      if (!['ENOTEMPTY', 'EEXIST'].includes(err.code) || attempt >= 5) throw err;
    } finally {
      fs.rmSync(old, { recursive: true, force: true });
    }
  }
  return { files: entryPoints.length, ms: Date.now() - started };
}

function walk(dir, withDirs = false) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(withDirs ? [full] : []), ...walk(full, withDirs));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

// `node scripts/build.mjs` builds; with --if-stale only when buildIsStale() (as `npm start` does),
// so a caller that runs dist/ beside other processes does not swap it under them for nothing
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--if-stale') && !buildIsStale()) {
    process.stderr.write('[build] dist/ is up to date\n');
  } else {
    const { files, ms } = await build();
    process.stderr.write(`[build] ${files} modules -> dist/ in ${ms} ms\n`);
  }
}
