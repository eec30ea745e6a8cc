import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { createCodeRunner } from '../../src/code-runner/index.js';
import type { CodeRunner } from '../../src/code-runner/types.js';
import { AppError } from '../../src/http/errors.js';
import { createLogger } from '../../src/logger.js';
import { PISTON_RUNTIMES, startFakePiston, type FakePiston } from './fake-piston.js';
import { TEST_LIMITS, sandboxRunner, testSandboxUid } from './sandbox-helpers.js';

/** CODE_RUNNER=piston: each run is one POST /api/v2/execute to the pool, answered by a fake Piston on 127.0.0.1. */
let dataDir: string;
let fake: FakePiston;
let local: CodeRunner;
let piston: CodeRunner;

function pistonConfig(env: Record<string, string>): Config {
  return loadConfig({ DATA_DIR: dataDir, ...TEST_LIMITS, CODE_RUNNER: 'piston', PISTON_PYTHON_VERSION: '3.x', ...env });
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-piston-'));
  local = sandboxRunner(loadConfig({ DATA_DIR: dataDir, ...TEST_LIMITS, CODE_SANDBOX_UID: String(testSandboxUid() + 2000) }));
  fake = await startFakePiston(local);
  piston = createCodeRunner(pistonConfig({ PISTON_URL: `${fake.url}/` }), createLogger('silent'));
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.respond = undefined;
  fake.runtimes = [...PISTON_RUNTIMES];
});

afterAll(async () => {
  await piston?.close();
  await fake?.close();
  await local?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('PistonRunner.run', () => {
  it('sends one execute call per run with the language, version selector, file, stdin and limits', async () => {
    expect(piston.name).toBe('piston');
    const py = await piston.run({ language: 'python', code: 'print(int(input()) * 2)', stdin: '21\n' });
    expect(py).toMatchObject({ stdout: '42\n', stderr: '', exitCode: 0, timedOut: false, outputTruncated: false, signal: null });
    const js = await piston.run({ language: 'javascript', code: 'console.error("e"); process.exit(4)', stdin: '', limits: { wallMs: 1500 } });
    expect(js).toMatchObject({ stdout: '', stderr: 'e\n', exitCode: 4 });
    expect(fake.requests).toEqual([
      { language: 'python', version: '3.x', files: [{ name: 'main.py', content: 'print(int(input()) * 2)' }], stdin: '21\n', run_timeout: 5000, run_cpu_time: 1000, run_memory_limit: 160 * 1024 * 1024 },
      { language: 'javascript', version: '*', files: [{ name: 'main.js', content: 'console.error("e"); process.exit(4)' }], stdin: '', run_timeout: 1500, run_cpu_time: 1000, run_memory_limit: 160 * 1024 * 1024 },
    ]);
  });

  it("reads Piston's time-out, output-limit and signal answers", async () => {
    fake.respond = (b) => {
      const content = b.files[0]!.content;
      if (content === 'timeout') return { status: 200, body: { language: 'python', version: '3.12.0', run: { stdout: 'a', stderr: '', code: null, signal: 'SIGKILL', output: 'a', status: 'TO', wall_time: 3012 } } };
      if (content === 'long') return { status: 200, body: { language: 'python', version: '3.12.0', run: { stdout: 'x'.repeat(10_000), stderr: '', code: null, signal: 'SIGKILL', output: '' } } };
      return { status: 200, body: { language: 'python', version: '3.12.0', run: { stdout: '', stderr: 'x', code: null, signal: 'SIGSEGV', output: 'x', status: 'SG' } } };
    };
    expect(await piston.run({ language: 'python', code: 'timeout', stdin: '' })).toEqual({ stdout: 'a', stderr: '', exitCode: 137, runtimeMs: 3012, timedOut: true, outputTruncated: false, signal: 'SIGKILL' });
    const long = await piston.run({ language: 'python', code: 'long', stdin: '' });
    expect(long).toMatchObject({ outputTruncated: true, exitCode: 137, signal: 'SIGKILL' });
    expect(long.stdout).toBe('x'.repeat(4096));
    expect(await piston.run({ language: 'python', code: 'segv', stdin: '' })).toMatchObject({ exitCode: 139, signal: 'SIGSEGV', timedOut: false });
  });

  it('turns Piston refusals into clear errors: 429 runner_busy, 503 piston_failed', async () => {
    fake.respond = () => ({ status: 429, body: { message: 'Too many requests' } });
    expect(await rejection(piston.run({ language: 'python', code: 'print(1)', stdin: '' }))).toMatchObject({ status: 429, code: 'runner_busy' });
    fake.respond = () => ({ status: 500, body: { message: 'boom' } });
    const failed = await rejection(piston.run({ language: 'python', code: 'print(1)', stdin: '' }));
    expect(failed).toMatchObject({ status: 503, code: 'piston_failed' });
    expect(failed.message).toContain('boom');
    fake.respond = () => ({ status: 200, body: '{"run": "nope"}' });
    expect(await rejection(piston.run({ language: 'python', code: 'print(1)', stdin: '' }))).toMatchObject({ status: 503, code: 'piston_failed' });
    fake.respond = undefined;
    fake.runtimes = fake.runtimes.filter((r) => r.language !== 'javascript');
    const unknown = await rejection(piston.run({ language: 'javascript', code: '1', stdin: '' }));
    expect(unknown).toMatchObject({ status: 503, code: 'piston_failed' });
    expect(unknown.message).toContain('runtime is unknown');
  });

  it('refuses an unknown language with 400 before calling the pool', async () => {
    expect(await rejection(piston.run({ language: 'cobol' as never, code: '', stdin: '' }))).toMatchObject({ status: 400, code: 'unsupported_language' });
    expect(fake.requests).toEqual([]);
  });
});

describe('PistonRunner.health', () => {
  it('is ok when the pool has both runtimes, and names the missing one otherwise', async () => {
    expect(await piston.health()).toEqual({ ok: true });
    fake.runtimes = [{ language: 'python', version: '3.12.0', aliases: [] }];
    const fresh = createCodeRunner(pistonConfig({ PISTON_URL: fake.url }), createLogger('silent'));
    expect(await fresh.health()).toEqual({ ok: false, code: 'piston_runtime_missing', message: 'The Piston pool has no javascript runtime.', install: 'piston ppman install node' });
  });

  it('an unreachable pool: health says so and runs answer 503 piston_unavailable', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const gone = createCodeRunner(pistonConfig({ PISTON_URL: `http://127.0.0.1:${port}` }), createLogger('silent'));
    expect(await gone.health()).toMatchObject({ ok: false, code: 'piston_unavailable' });
    expect(await rejection(gone.run({ language: 'python', code: 'print(1)', stdin: '' }))).toMatchObject({ status: 503, code: 'piston_unavailable' });
  });
});
