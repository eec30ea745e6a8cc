// Bundles the browser code that needs npm packages (the code quiz's editor: CodeMirror 6) with
// esbuild into public/code/build/ (git-ignored). `npm start` and `npm test` call it; it rebuilds
// only when an output is missing or older than its sources or package-lock.json.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC_DIR = path.join(ROOT, 'public', 'code', 'src');
const OUT_DIR = path.join(ROOT, 'public', 'code', 'build');
/** entry file under public/code/src -> bundle under public/code/build */
const ENTRIES = { 'kids-code.js': 'kids-code.js' };

const mtime = (f) => {
  try {
    return fs.statSync(f).mtimeMs;
  } catch {
    return 0;
  }
};

/** true when some bundle is missing or older than a source file or the lock file */
export function clientIsStale() {
  const newestInput = Math.max(mtime(path.join(ROOT, 'package-lock.json')), ...fs.readdirSync(SRC_DIR).map((f) => mtime(path.join(SRC_DIR, f))));
  return Object.values(ENTRIES).some((out) => mtime(path.join(OUT_DIR, out)) < newestInput);
}

export async function buildClient({ force = false } = {}) {
  if (!force && !clientIsStale()) return false;
  const { build } = await import('esbuild');
  const tmp = `${OUT_DIR}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([src, out]) => [out.replace(/\.js$/, ''), path.join(SRC_DIR, src)])),
    outdir: tmp,
    bundle: true,
    format: 'esm',
    minify: true,
    sourcemap: false,
    target: ['es2020'],
    logLevel: 'warning',
  });
  // swap in the new bundles at once, so a running server never serves half a build
  fs.rmSync(OUT_DIR, { recursive: true, force: true });
  try {
    fs.renameSync(tmp, OUT_DIR);
  } catch (err) {
    // another process (a parallel test file) swapped in the same bundles first
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(OUT_DIR)) throw err;
  }
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildClient({ force: process.argv.includes('--force') });
  process.stdout.write(`[build] browser bundles ${built ? 'built' : 'up to date'} (public/code/build)\n`);
}
