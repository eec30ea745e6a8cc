// `npm test`: install what is missing, lint (Biome), type-check the server (tsc) and the browser
// scripts (tsc -p tsconfig.public.json, JSDoc types), then run every test (unit, route,
// integration with ffmpeg/yt-dlp/pocketsphinx, browser with Chromium). Extra arguments go to vitest.
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
process.exit(run(bin('vitest'), ['run', ...process.argv.slice(2)]));
