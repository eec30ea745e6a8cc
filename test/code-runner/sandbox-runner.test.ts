import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { createCodeRunner } from '../../src/code-runner/index.js';
import type { SandboxRunner } from '../../src/code-runner/sandbox.runner.js';
import { AppError } from '../../src/http/errors.js';
import { TEST_LIMITS, sandboxRunner, strayProcesses, testSandboxUid } from './sandbox-helpers.js';

/** The runner's contract around the sandbox: results, refusals (400/429/503), abort, health. */
const isRoot = process.getuid?.() === 0;
const uid = testSandboxUid() + 1500; // clear of the hostile-test files' uids
let dataDir: string;
let config: Config;
const runners: SandboxRunner[] = [];

function runner(env: Record<string, string> = {}): SandboxRunner {
  const r = sandboxRunner({ ...config, ...loadConfig({ DATA_DIR: dataDir, CODE_SANDBOX_UID: String(uid), ...TEST_LIMITS, ...env }) });
  runners.push(r);
  return r;
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

/** a program that, if it ever ran outside a sandbox, would leave this file on the host */
function markerProgram(): { code: string; marker: string } {
  const marker = path.join(os.tmpdir(), `kvq-unsandboxed-${crypto.randomBytes(6).toString('hex')}`);
  return { code: `open(${JSON.stringify(marker)}, "w").write("ran")`, marker };
}

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-runner-'));
  config = loadConfig({ DATA_DIR: dataDir, CODE_SANDBOX_UID: String(uid), ...TEST_LIMITS });
});

afterAll(async () => {
  await Promise.all(runners.map((r) => r.close()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('SandboxRunner.run', () => {
  it('passes stdin, keeps stdout and stderr apart and reports the exit code', async () => {
    const r = runner();
    const result = await r.run({ language: 'python', code: 'import sys\nprint("héllo " + input())\nprint("oops", file=sys.stderr)\nsys.exit(3)', stdin: 'Ada\n' });
    expect(result).toMatchObject({ stdout: 'héllo Ada\n', stderr: 'oops\n', exitCode: 3, timedOut: false, outputTruncated: false, signal: null });
    expect(result.runtimeMs).toBeGreaterThan(0);
    const js = await r.run({ language: 'javascript', code: 'const s = require("fs").readFileSync(0, "utf8"); console.log(s.split("\\n").map(Number).reduce((a, b) => a + b)); console.error("note"); process.exitCode = 2;', stdin: '1\n2\n3' });
    expect(js).toMatchObject({ stdout: '6\n', stderr: 'note\n', exitCode: 2, timedOut: false });
  });

  it('shows the program alone, read-only, at /code', async () => {
    const result = await runner().run({ language: 'python', code: 'import os\nprint(os.listdir("/code"), oct(os.stat("/code/main.py").st_mode & 0o777))\nprint(open(__file__).read().splitlines()[0])', stdin: '' });
    expect(result.stdout).toBe("['main.py'] 0o644\nimport os\n");
  });

  it('refuses an unknown language with 400 listing the supported ones', async () => {
    const err = await rejection(runner().run({ language: 'ruby' as never, code: 'puts 1', stdin: '' }));
    expect(err).toMatchObject({ status: 400, code: 'unsupported_language', detail: { supported: ['python', 'javascript'] } });
    expect(err.message).toContain('python, javascript');
  });

  it('answers 429 runner_busy when every slot and the queue are taken, and runs again afterwards', async () => {
    const r = runner({ CODE_CONCURRENCY: '1', CODE_QUEUE: '0' });
    const slow = r.run({ language: 'python', code: 'import time\ntime.sleep(0.5)\nprint("done")', stdin: '' });
    await new Promise((resolve) => setImmediate(resolve));
    const err = await rejection(r.run({ language: 'python', code: 'print(1)', stdin: '' }));
    expect(err).toMatchObject({ status: 429, code: 'runner_busy', detail: { retry_after_seconds: 2 } });
    expect((await slow).stdout).toBe('done\n');
    expect((await r.run({ language: 'python', code: 'print(1)', stdin: '' })).stdout).toBe('1\n');
  });

  it('stops the program when the caller aborts, even during the sandbox set-up, and leaves no process behind', async () => {
    const r = runner();
    await r.health();
    // 0 ms: while bwrap is still setting up (the race --info-fd closes); 300 ms: while the program runs
    for (const delay of [0, 300]) {
      const ac = new AbortController();
      const run = r.run({ language: 'python', code: 'import time\nprint("started", flush=True)\ntime.sleep(60)', stdin: '' }, ac.signal);
      setTimeout(() => ac.abort(new Error('client went away')), delay);
      await expect(run).rejects.toThrow('client went away');
      if (isRoot) expect(await strayProcesses(uid)).toEqual([]);
    }
  });
});

describe('SandboxRunner.health: never an unsandboxed fallback', () => {
  it('is ok on this machine', async () => {
    expect(await runner().health()).toEqual({ ok: true });
    expect(createCodeRunner(config, (await import('../../src/logger.js')).createLogger('silent')).name).toBe('sandbox');
  });

  it('bubblewrap missing: health names the package, every run is refused with 503 and nothing runs', async () => {
    const r = runner({ BWRAP_PATH: '/nonexistent/bwrap' });
    expect(await r.health()).toEqual({ ok: false, code: 'bubblewrap_missing', message: expect.stringContaining('not installed'), install: 'apt-get install bubblewrap' });
    const { code, marker } = markerProgram();
    const err = await rejection(r.run({ language: 'python', code, stdin: '' }));
    expect(err).toMatchObject({ status: 503, code: 'bubblewrap_missing', detail: { install: 'apt-get install bubblewrap' } });
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('bubblewrap unable to create its namespaces (a program that fails as bwrap does there): 503 sandbox_unavailable', async () => {
    // /usr/bin/false stands where bwrap is and exits 1, as bwrap does on a kernel or container
    // that forbids unprivileged user namespaces
    const r = runner({ BWRAP_PATH: '/usr/bin/false' });
    const health = await r.health();
    expect(health).toMatchObject({ ok: false, code: 'sandbox_unavailable', install: 'apt-get install bubblewrap' });
    const { code, marker } = markerProgram();
    const err = await rejection(r.run({ language: 'python', code, stdin: '' }));
    expect(err).toMatchObject({ status: 503, code: 'sandbox_unavailable' });
    expect(err.message).toContain('namespaces');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('an interpreter that is not installed: 503 language_unavailable naming what to install', async () => {
    const err = await rejection(runner({ CODE_PYTHON_PATH: '/nonexistent/python3' }).run({ language: 'python', code: 'print(1)', stdin: '' }));
    expect(err).toMatchObject({ status: 503, code: 'language_unavailable', detail: { install: 'apt-get install python3' } });
  });

  it.skipIf(!isRoot)('an interpreter the sandbox user cannot reach (e.g. under /root): 503 sandbox_unavailable with bwrap\'s reason', async () => {
    const privateDir = fs.mkdtempSync(path.join(dataDir, 'private-')); // mode 0700, owned by root
    fs.symlinkSync('/usr/bin/python3', path.join(privateDir, 'python3'));
    const err = await rejection(runner({ CODE_PYTHON_PATH: path.join(privateDir, 'python3') }).run({ language: 'python', code: 'print(1)', stdin: '' }));
    expect(err).toMatchObject({ status: 503, code: 'sandbox_unavailable' });
    expect(err.message).toMatch(/bwrap: .*python3/);
  });

  it('CODE_RUNNER=piston without PISTON_URL is refused at start, not run locally', async () => {
    const { createLogger } = await import('../../src/logger.js');
    expect(() => createCodeRunner({ ...config, CODE_RUNNER: 'piston', PISTON_URL: undefined }, createLogger('silent'))).toThrow(/PISTON_URL/);
  });
});
