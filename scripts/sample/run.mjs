// Runs a tool with an argument array (never a shell) and fails loudly with its stderr tail.

import { spawnSync } from 'node:child_process';

export function run(cmd, args, { input } = {}) {
  const r = spawnSync(cmd, args, { input, maxBuffer: 64 * 1024 * 1024, encoding: 'buffer' });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    const tail = r.stderr.toString('utf8').split('\n').slice(-15).join('\n');
    throw new Error(`${cmd} exited with ${r.status}:\n${tail}`);
  }
  return r.stdout.toString('utf8');
}

/** true when `cmd` can be started */
export function available(cmd, args = ['-version']) {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return !r.error;
}
