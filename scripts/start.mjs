// `npm start`: install what is missing, then run the service (TypeScript through tsx).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT, SYSTEM_TOOLS, ensureDeps, ensureNode, ensureSystem } from './ensure.mjs';
import { buildClient } from './build-client.mjs';

ensureNode();
ensureDeps();
ensureSystem(SYSTEM_TOOLS, { required: false });
await buildClient();

const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'server.ts')], { stdio: 'inherit', cwd: ROOT });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
