// `npm test`: install what is missing, type-check, then run every test (unit, route,
// integration with ffmpeg/yt-dlp/pocketsphinx, browser with Chromium). Extra arguments go to vitest.
import path from 'node:path';
import { ROOT, SYSTEM_TOOLS, TEST_TOOLS, ensureDeps, ensureNode, ensureSystem, run } from './ensure.mjs';
import { buildClient } from './build-client.mjs';

ensureNode();
ensureDeps();
ensureSystem([...SYSTEM_TOOLS, ...TEST_TOOLS], { required: true });
await buildClient();

const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);
console.log('[test] type-checking (tsc --noEmit)...');
if (run(bin('tsc'), ['--noEmit']) !== 0) process.exit(1);
console.log('[test] running vitest...');
process.exit(run(bin('vitest'), ['run', ...process.argv.slice(2)]));
