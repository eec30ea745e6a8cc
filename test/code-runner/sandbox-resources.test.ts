import { afterAll, beforeAll, describe, it } from 'vitest';
import { startTempApp, type TempApp } from '../helpers/temp-app.js';
import type { RunResult } from '../../src/code-runner/types.js';
import { HOSTILE_WALL_MS, HostileKit, TEST_LIMITS, isRoot, processesOf } from './sandbox-helpers.js';

/**
 * Children's code is hostile: each case below abuses one resource (processes, memory, CPU, time,
 * output, signals) and asserts, from outside the sandbox, that the harm did not happen, that no
 * process is left and that the runner and the service still answer. The cases run in parallel,
 * each on its own sandbox uid.
 */
let app: TempApp;
let baseUrl: string;
const kit = new HostileKit(() => app.config, 500);
const hostile = kit.hostile.bind(kit);
const newRunner = kit.newRunner.bind(kit);
const expectCleanAfter = kit.expectCleanAfter.bind(kit);

beforeAll(async () => {
  app = await startTempApp(TEST_LIMITS);
  baseUrl = await app.listen();
});

afterAll(async () => {
  await kit.close();
  await app?.close();
});

describe('sandbox: resources', () => {
  it.concurrent('a fork bomb stops at the process limit, does not starve other runs of the same user, and leaves nothing behind', async ({ expect }) => {
    const { runner, uid } = newRunner();
    let peak = 0;
    let done = false;
    let neighbour: Promise<RunResult> | undefined;
    const run = runner
      .run({ language: 'python', code: 'import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass', stdin: '', limits: { wallMs: HOSTILE_WALL_MS } })
      .finally(() => (done = true));
    while (!done) {
      peak = Math.max(peak, processesOf(uid).length);
      // RLIMIT_NPROC is counted per sandbox (each has its own user namespace), so a Node run
      // (about 12 threads) next to the bomb, as the same uid, still starts
      if (peak > 4 && !neighbour) neighbour = runner.run({ language: 'javascript', code: 'console.log("alive")', stdin: '' });
      await new Promise((r) => setTimeout(r, 20));
    }
    const result = await run;
    expect(result.timedOut).toBe(true);
    expect(neighbour).toBeDefined();
    expect(await neighbour).toMatchObject({ stdout: 'alive\n', exitCode: 0 });
    if (isRoot) {
      // 32 processes inside the box (RLIMIT_NPROC) plus bwrap outside it, plus the neighbour's
      // three (bwrap outside, bwrap inside, node)
      expect(peak).toBeGreaterThan(4);
      expect(peak).toBeLessThanOrEqual(Number(app.config.CODE_PROCESSES) + 2 + 3);
    }
    await expectCleanAfter(runner, uid);
  });

  it.concurrent('JavaScript starting many processes gets only a few, and they die with the run', async ({ expect }) => {
    const code = `const cp = require("child_process"); let ok = 0, failed = 0;
for (let i = 0; i < 100; i++) { try { const c = cp.spawn("/usr/bin/sleep", ["60"], { detached: true }); c.on("spawn", () => ok++); c.on("error", () => failed++); } catch (e) { failed++; } }
setTimeout(() => { console.log(JSON.stringify({ ok, failed })); process.exit(0); }, 500);`;
    const { result, uid, runner } = await hostile('javascript', code);
    const counts = JSON.parse(result.stdout) as { ok: number; failed: number };
    expect(counts.ok).toBeLessThan(32);
    expect(counts.failed).toBeGreaterThan(0);
    await expectCleanAfter(runner, uid);
  });

  it.concurrent.for([
    ['python', 'x = []\nwhile True:\n    x.append(bytearray(10**6))', /MemoryError/],
    ['javascript', 'const a = []; for (;;) a.push(new Array(1e6).fill(1.5));', /heap|memory/i],
    ['javascript', 'const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1));', /memory|allocation|RangeError|Aborted/i],
  ] as const)('%s memory hog fails inside its data limit: %s', async ([language, code, message], { expect }) => {
    // a longer wall than the other cases: V8 collects hard before giving up, on two busy cores
    const { result, uid, runner } = await hostile(language, code, 4500);
    expect(result.exitCode).not.toBe(0);
    expect(result.timedOut).toBe(false);
    expect(result.stderr + (result.signal ?? '')).toMatch(message);
    await expectCleanAfter(runner, uid);
  });

  it.concurrent.for([
    ['python', 'while True:\n    pass'],
    ['javascript', 'for (;;) {}'],
  ] as const)('%s CPU spin is stopped and reported as timed out', async ([language, code], { expect }) => {
    const { result, uid, runner } = await hostile(language, code);
    expect(result.timedOut).toBe(true);
    expect(['SIGXCPU', 'SIGKILL']).toContain(result.signal);
    await expectCleanAfter(runner, uid);
  });

  it.concurrent.for([
    ['python', 'import time\ntime.sleep(60)'],
    ['javascript', 'setTimeout(() => console.log("woke"), 60000)'],
  ] as const)('%s sleep 60 is killed at the wall limit', async ([language, code], { expect }) => {
    const { result, uid, runner } = await hostile(language, code);
    expect(result).toMatchObject({ timedOut: true, signal: 'SIGKILL', stdout: '' });
    await expectCleanAfter(runner, uid);
  });

  it.concurrent.for([
    ['python', 'import sys\nfor i in range(100):\n    sys.stdout.write("x" * 1_000_000)'],
    ['javascript', 'for (let i = 0; i < 100; i++) process.stdout.write("x".repeat(1_000_000));'],
  ] as const)('%s printing 100 MB is cut at the output cap', async ([language, code], { expect }) => {
    const { result, uid, runner } = await hostile(language, code);
    expect(result.outputTruncated).toBe(true);
    expect(result.stdout.length).toBeLessThanOrEqual(4096);
    expect(result.stdout).toMatch(/^x+$/);
    await expectCleanAfter(runner, uid);
  });

  it.concurrent('a program ignoring SIGTERM with children in their own sessions is killed with all of them', async ({ expect }) => {
    const code = `import os, signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
for i in range(3):
    if os.fork() == 0:
        os.setsid()
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(120)
        os._exit(0)
print("children started", flush=True)
time.sleep(120)`;
    const { result, uid, runner } = await hostile('python', code);
    expect(result).toMatchObject({ timedOut: true, stdout: 'children started\n' });
    await expectCleanAfter(runner, uid);
  });

  it.concurrent('JavaScript ignoring SIGTERM with detached children is killed with all of them', async ({ expect }) => {
    const code = `process.on("SIGTERM", () => console.log("ignored"));
const cp = require("child_process");
for (let i = 0; i < 3; i++) cp.spawn("/usr/bin/sleep", ["120"], { detached: true, stdio: "ignore" }).unref();
console.log("children started");
setInterval(() => {}, 1000);`;
    const { result, uid, runner } = await hostile('javascript', code);
    expect(result).toMatchObject({ timedOut: true, signal: 'SIGKILL', stdout: 'children started\n' });
    await expectCleanAfter(runner, uid);
  });

  it.concurrent('children left behind by a program that exits are killed with the sandbox', async ({ expect }) => {
    const code = `import os, time
for i in range(3):
    if os.fork() == 0:
        os.setsid()
        time.sleep(120)
        os._exit(0)
print("parent done")`;
    const { result, uid, runner } = await hostile('python', code);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, stdout: 'parent done\n' });
    await expectCleanAfter(runner, uid);
  });

  it.concurrent('the service keeps answering HTTP while hostile code runs', async ({ expect }) => {
    const { runner, uid } = newRunner();
    const spin = runner.run({ language: 'python', code: 'while True:\n    pass', stdin: '', limits: { wallMs: HOSTILE_WALL_MS } });
    const res = await fetch(`${baseUrl}/api/config`);
    expect(res.status).toBe(200);
    const hello = await runner.run({ language: 'javascript', code: 'console.log("hi " + require("fs").readFileSync(0, "utf8"))', stdin: 'there' });
    expect(hello).toMatchObject({ stdout: 'hi there\n', exitCode: 0, timedOut: false, outputTruncated: false });
    expect((await spin).timedOut).toBe(true);
    await expectCleanAfter(runner, uid);
  });
});
