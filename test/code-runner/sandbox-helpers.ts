import { execFileSync } from 'node:child_process';
import { createLogger } from '../../src/logger.js';
import { SandboxRunner } from '../../src/code-runner/sandbox.runner.js';
import type { Config } from '../../src/config.js';

/**
 * A uid of its own per test file, so "no process of the sandbox user is left" is exact even while
 * other test files (and other services on this machine) run code as nobody.
 */
export function testSandboxUid(): number {
  return 61_000 + (process.pid % 3000);
}

/** Small limits keep the hostile cases quick; they run in parallel, so allow that many at once. */
export const TEST_LIMITS = {
  CODE_WALL_MS: '5000',
  CODE_CPU_SECONDS: '1',
  CODE_DATA_MB: '160',
  CODE_OUTPUT_BYTES: '4096',
  CODE_CONCURRENCY: '16',
  CODE_QUEUE: '16',
  CODE_TMPFS_MB: '2',
};

export function sandboxRunner(config: Config): SandboxRunner {
  return new SandboxRunner(config, createLogger('silent'));
}

/** pids of every process (threads excluded) running as `uid` right now */
export function processesOf(uid: number): number[] {
  try {
    return execFileSync('ps', ['-u', String(uid), '-o', 'pid='], { encoding: 'utf8' })
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when nothing matches
  }
}

/**
 * Waits until no process of `uid` is left, for at most `maxMs` (the kernel tears a pid namespace
 * down asynchronously after its init dies); answers what is still there at the end.
 */
export async function strayProcesses(uid: number, maxMs = 5000): Promise<number[]> {
  const until = Date.now() + maxMs;
  let left = processesOf(uid);
  while (left.length && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    left = processesOf(uid);
  }
  return left;
}
