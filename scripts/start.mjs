// `npm start`: install what is missing, build dist/ when a source is newer than the last build,
// then run the built service (`node dist/server.js`) with NODE_ENV=production unless NODE_ENV is
// already set (Express caches views and skips development work in production).
// `npm run dev` runs the TypeScript sources in watch mode instead (tsx watch).
// `npm run worker` (`node scripts/start.mjs worker`): the same, then `node dist/worker.js`, a
// process that only works jobs (src/worker.ts, docs/jobs.md).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT, SYSTEM_TOOLS, ensureDeps, ensureNode, ensureSystem } from './ensure.mjs';
import { buildClient } from './build-client.mjs';

ensureNode();
ensureDeps();
ensureSystem(SYSTEM_TOOLS, { required: false });
await buildClient();

// imported only now: the builder needs esbuild, which ensureDeps has just installed
const { build, buildIsStale, DIST } = await import('./build.mjs');
if (buildIsStale()) {
  process.stderr.write('[setup] building dist/ from src/ ...\n');
  const { files, ms } = await build();
  process.stderr.write(`[setup] built ${files} modules in ${ms} ms\n`);
}

const env = { ...process.env, NODE_ENV: process.env.NODE_ENV || 'production' };
const entry = process.argv[2] === 'worker' ? 'worker.js' : 'server.js';
const child = spawn(process.execPath, ['--enable-source-maps', path.join(DIST, entry)], { stdio: 'inherit', cwd: ROOT, env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
