import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { SandboxRunner } from '../../src/code-runner/sandbox.runner.js';
import type { Language, RunResult } from '../../src/code-runner/types.js';
import type { Config } from '../../src/config.js';

export const isRoot = process.getuid?.() === 0;
/** the wall limit hostile cases ask for (the settings' ceiling in tests is CODE_WALL_MS) */
export const HOSTILE_WALL_MS = 2000;

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

/**
 * pids of every live process (threads excluded) of `uid` right now. Zombies do not count: they
 * run nothing and hold no resources. bwrap's sandbox init is one after every run: bwrap learns
 * the exit status without reaping it, so it ends up with the machine's init, which reaps it.
 */
export function processesOf(uid: number): number[] {
  try {
    return execFileSync('ps', ['-u', String(uid), '-o', 'pid=,stat='], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter(([pid, stat]) => Number(pid) > 0 && !stat?.startsWith('Z'))
      .map(([pid]) => Number(pid));
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

/**
 * Runners for hostile cases: each gets its own sandbox uid (from `testSandboxUid() + uidOffset`
 * up), so the process counts and the "nothing left behind" checks of one case are exact while
 * other cases run in parallel.
 */
export class HostileKit {
  private readonly runners: SandboxRunner[] = [];
  private nextUid: number;

  constructor(
    private readonly config: () => Config,
    uidOffset: number,
  ) {
    this.nextUid = testSandboxUid() + uidOffset;
  }

  /** a runner of its own; `uid` is the one its code runs as (the service's own when not root) */
  newRunner(): { runner: SandboxRunner; uid: number } {
    const uid = this.nextUid++;
    const runner = sandboxRunner({ ...this.config(), CODE_SANDBOX_UID: uid });
    this.runners.push(runner);
    return { runner, uid: isRoot ? uid : process.getuid!() };
  }

  async hostile(language: Language, code: string, wallMs = HOSTILE_WALL_MS): Promise<{ result: RunResult; uid: number; runner: SandboxRunner }> {
    const { runner, uid } = this.newRunner();
    const result = await runner.run({ language, code, stdin: '', limits: { wallMs } });
    return { result, uid, runner };
  }

  /** asserts that nothing of the hostile run is left and the runner still runs a normal program */
  async expectCleanAfter(runner: SandboxRunner, uid: number): Promise<void> {
    if (isRoot) expect(await strayProcesses(uid)).toEqual([]);
    const again = await runner.run({ language: 'python', code: 'print(6 * 7)', stdin: '' });
    expect(again).toMatchObject({ stdout: '42\n', exitCode: 0, timedOut: false });
  }

  async close(): Promise<void> {
    await Promise.all(this.runners.map((r) => r.close()));
  }
}
