// `npm run bench`: every benchmark under bench/, one after another (each prints its own ratios).
import fs from 'node:fs';
import path from 'node:path';
import { BENCH_TOOLS, ROOT, SYSTEM_TOOLS, ensureDeps, ensureNode, ensureSystem, run } from './ensure.mjs';

ensureNode();
ensureDeps();
const only = process.argv[2];
ensureSystem(!only || only === 'speech' ? [...SYSTEM_TOOLS, ...BENCH_TOOLS] : SYSTEM_TOOLS, { required: true });
// bench/api.ts loads the server from wrk (a C program, apart from the server) when it is there,
// else from a Node loop sharing the two cores: installed when it can be, not required
if (!only || only === 'api' || only === 'scale') ensureSystem([{ bin: 'wrk', pkg: 'wrk', need: 'API benchmark: a light load generator' }], { required: false });
// bench/scale.ts starts a throwaway PostgreSQL cluster (Debian's server binaries)
if (!only || only === 'scale') {
  ensureSystem([{ file: '/usr/lib/postgresql', pkg: 'postgresql', need: 'scale benchmark: the PostgreSQL engine (a throwaway cluster)' }], { required: true });
}
const files = fs.readdirSync(path.join(ROOT, 'bench')).filter((f) => f.endsWith('.ts') && (!only || f === `${only}.ts`)).sort();
let failed = 0;
for (const f of files) {
  console.log(`\n=== bench/${f}`);
  if (run(process.execPath, ['--import', 'tsx', path.join('bench', f)]) !== 0) failed++;
}
process.exit(failed ? 1 : 0);
