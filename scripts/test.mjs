// `npm test`: install what is missing, lint (Biome), type-check the server (tsc) and the browser
// scripts (tsc -p tsconfig.public.json, JSDoc types), then run every test (unit, route,
// integration with ffmpeg/yt-dlp/pocketsphinx, browser with Chromium). Extra arguments go to vitest.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, SYSTEM_TOOLS, TEST_TOOLS, ensureDeps, ensureNode, ensureSystem, run } from './ensure.mjs';
import { buildClient } from './build-client.mjs';

ensureNode();
ensureDeps();
ensureSystem([...SYSTEM_TOOLS, ...TEST_TOOLS], { required: true });
await buildClient();

const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);
console.log('[test] linting (biome lint)...');
if (run(bin('biome'), ['lint']) !== 0) process.exit(1);
console.log('[test] type-checking the server (tsc --noEmit)...');
if (run(bin('tsc'), ['--noEmit']) !== 0) process.exit(1);
console.log('[test] type-checking the browser scripts (tsc -p tsconfig.public.json)...');
if (run(bin('tsc'), ['-p', 'tsconfig.public.json']) !== 0) process.exit(1);
console.log('[test] running vitest...');
const extra = process.argv.slice(2);
const first = run(bin('vitest'), ['run', ...extra]);
if (first !== 0 || extra.length) process.exit(first);

// The second engine (issue #18): the repository and route tests again, on PostgreSQL. README, "Testing".
const files = postgresTestFiles();
if (!postgresWanted()) {
  console.log('[test] PostgreSQL is not installed here: skipping the second engine (CI always runs it).');
  process.exit(0);
}
console.log(`[test] running ${files.length} repository and route test files again on PostgreSQL (TEST_ENGINE=postgres)...`);
process.exit(run(bin('vitest'), ['run', ...files], { env: { ...process.env, TEST_ENGINE: 'postgres' } }));

/** PostgreSQL runs when asked (CI) or possible (a server URL, or Debian's server installed), unless TEST_POSTGRES=off. */
function postgresWanted() {
  if (process.env.TEST_POSTGRES === 'off') return false;
  if (process.env.CI === 'true' || process.env.TEST_DATABASE_URL) return true;
  const root = '/usr/lib/postgresql';
  return fs.existsSync(root) && fs.readdirSync(root).some((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')));
}

/**
 * The files of the data-owning features that start the app (startTestApp/startTempApp): their
 * SQL is what differs between engines. Not the browser tests (Chromium drives the same routes)
 * nor the media pipeline's (ffmpeg/yt-dlp runs whose rows are the same as the library tests'),
 * which stay on SQLite to keep CI within its time; test/db tests both engines in the first run.
 */
function postgresTestFiles() {
  const folders = ['accounts', 'auth', 'videos', 'questions', 'quiz', 'code-quiz', 'jobs', 'sample', 'meta'];
  const mediaOnly = new Set(['test/videos/download.test.ts', 'test/videos/download-errors.test.ts', 'test/videos/frames.test.ts', 'test/sample/media.test.ts']);
  // tests about the SQLite file itself (its bytes at rest, its integrity after a kill, a crash left in it, a worker process sharing it; pgboss-queue.test.ts covers workers on PostgreSQL)
  const sqliteFileOnly = new Set(['test/accounts/secrets-at-rest.test.ts', 'test/jobs/shutdown.test.ts', 'test/jobs/recovery.test.ts', 'test/jobs/worker.test.ts']);
  const out = [];
  for (const folder of folders) {
    const dir = path.join(ROOT, 'test', folder);
    for (const name of fs.readdirSync(dir).sort()) {
      const rel = `test/${folder}/${name}`;
      if (!name.endsWith('.test.ts') || name.endsWith('.browser.test.ts') || mediaOnly.has(rel) || sqliteFileOnly.has(rel)) continue;
      if (/startTestApp|startTempApp|codeQuizWorld/.test(fs.readFileSync(path.join(dir, name), 'utf8'))) out.push(rel);
    }
  }
  return out;
}
