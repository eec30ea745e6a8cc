import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempApp, type TempApp } from '../helpers/temp-app.js';
import type { SandboxRunner } from '../../src/code-runner/sandbox.runner.js';
import type { Language, RunResult } from '../../src/code-runner/types.js';
import { TEST_LIMITS, processesOf, sandboxRunner, strayProcesses, testSandboxUid } from './sandbox-helpers.js';

/**
 * Children's code is hostile: each case below tries one kind of harm and asserts, from outside the
 * sandbox, that it did not happen. Every case gets a runner with its own sandbox uid, so the
 * process counts and the "nothing left behind" checks are exact; the cases run in parallel.
 */
const isRoot = process.getuid?.() === 0;
const HOSTILE_WALL_MS = 2000;
const SANDBOX_ROOT_ENTRIES = ['bin', 'code', 'dev', 'lib', 'lib64', 'tmp', 'usr'];

let app: TempApp;
let baseUrl: string;
let listener: net.Server;
let listenerPort = 0;
let loopbackConnections = 0;
const runners: SandboxRunner[] = [];
let nextUid = testSandboxUid();

function newRunner(): { runner: SandboxRunner; uid: number } {
  const uid = nextUid++;
  const runner = sandboxRunner({ ...app.config, CODE_SANDBOX_UID: uid });
  runners.push(runner);
  return { runner, uid: isRoot ? uid : process.getuid!() };
}

async function hostile(language: Language, code: string, wallMs = HOSTILE_WALL_MS): Promise<{ result: RunResult; uid: number; runner: SandboxRunner }> {
  const { runner, uid } = newRunner();
  const result = await runner.run({ language, code, stdin: '', limits: { wallMs } });
  return { result, uid, runner };
}

/** asserts the runner still runs a normal program and that nothing of the hostile run is left */
async function expectCleanAfter(runner: SandboxRunner, uid: number): Promise<void> {
  if (isRoot) expect(await strayProcesses(uid)).toEqual([]);
  const again = await runner.run({ language: 'python', code: 'print(6 * 7)', stdin: '' });
  expect(again).toMatchObject({ stdout: '42\n', exitCode: 0, timedOut: false });
}

beforeAll(async () => {
  app = await startTempApp(TEST_LIMITS);
  baseUrl = await app.listen();
  listener = net.createServer((socket) => {
    loopbackConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
  listenerPort = (listener.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await Promise.all(runners.map((r) => r.close()));
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  await app?.close();
});

describe('sandbox: identity and view of the machine', () => {
  it.concurrent('runs Python as the unprivileged sandbox user with no groups, seeing only /usr, /code, /tmp, /dev', async ({ expect }) => {
    const { result, uid, runner } = await hostile('python', 'import os, json\nprint(json.dumps([os.getuid(), os.getgid(), os.getgroups(), sorted(os.listdir("/"))]))');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([uid, uid, [], SANDBOX_ROOT_ENTRIES]);
    await expectCleanAfter(runner, uid);
  });

  it.concurrent('runs JavaScript in a separate node with the same view and an empty environment', async ({ expect }) => {
    const { result, uid } = await hostile('javascript', 'console.log(JSON.stringify([process.getuid(), require("fs").readdirSync("/").sort(), Object.keys(process.env).sort()]))');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([uid, SANDBOX_ROOT_ENTRIES, ['HOME', 'LANG', 'PATH', 'PWD']]);
  });
});

describe('sandbox: network', () => {
  const pyProbe = (host: string, port: number) =>
    `import socket\ntry:\n    socket.create_connection((${JSON.stringify(host)}, ${port}), timeout=1)\n    print("CONNECTED")\nexcept OSError as e:\n    print("blocked", type(e).__name__)\n` +
    `try:\n    socket.getaddrinfo("example.com", 80)\n    print("RESOLVED")\nexcept OSError as e:\n    print("no dns")\n`;
  const jsProbe = (host: string, port: number) =>
    `const s = require("net").connect(${port}, ${JSON.stringify(host)});\n` +
    `s.setTimeout(1000, () => { console.log("blocked timeout"); process.exit(0); });\n` +
    `s.on("connect", () => { console.log("CONNECTED"); process.exit(0); });\n` +
    `s.on("error", (e) => { console.log("blocked", e.code); process.exit(0); });`;

  it.concurrent.for([
    ['python', () => pyProbe('127.0.0.1', listenerPort)],
    ['javascript', () => jsProbe('127.0.0.1', listenerPort)],
  ] as const)('%s cannot reach a service listening on 127.0.0.1', async ([language, code], { expect }) => {
    const { result } = await hostile(language, code());
    expect(result.stdout).toMatch(/^blocked/);
    expect(result.stdout).not.toContain('CONNECTED');
    expect(loopbackConnections).toBe(0);
  });

  it.concurrent.for([
    ['python', () => pyProbe('1.1.1.1', 443)],
    ['javascript', () => jsProbe('1.1.1.1', 443)],
  ] as const)('%s cannot reach the internet or resolve names', async ([language, code], { expect }) => {
    const { result } = await hostile(language, code());
    expect(result.stdout).toMatch(/^blocked/);
    expect(result.stdout).not.toMatch(/CONNECTED|RESOLVED/);
  });
});

describe('sandbox: files', () => {
  it.concurrent('cannot read DATA_DIR/secret.key, the SQLite file, /etc/passwd or the service code', async ({ expect }) => {
    const secret = fs.readFileSync(path.join(app.dataDir, 'secret.key'), 'utf8').trim();
    const targets = [
      path.join(app.dataDir, 'secret.key'),
      path.join(app.dataDir, 'app.sqlite'),
      '/etc/passwd',
      '/etc/shadow',
      path.resolve('package.json'),
      '/proc/1/environ',
      '/proc/self/root/etc/passwd',
    ];
    for (const t of targets.slice(0, 3)) expect(fs.existsSync(t)).toBe(true);
    const code =
      `import json\nout = {}\nfor p in ${JSON.stringify(targets)}:\n` +
      `    try:\n        with open(p, "rb") as f:\n            out[p] = f.read(400).hex()\n    except OSError as e:\n        out[p] = "ERR " + type(e).__name__\nprint(json.dumps(out))`;
    const { result } = await hostile('python', code);
    const seen = JSON.parse(result.stdout) as Record<string, string>;
    expect(Object.keys(seen).sort()).toEqual([...targets].sort());
    for (const t of targets) expect(seen[t], t).toMatch(/^ERR /);
    expect(result.stdout).not.toContain(Buffer.from(secret).toString('hex'));

    const js = `const fs = require("fs"); const out = {};\nfor (const p of ${JSON.stringify(targets)}) { try { out[p] = fs.readFileSync(p, "utf8"); } catch (e) { out[p] = "ERR " + e.code; } }\nconsole.log(JSON.stringify(out));`;
    const jsRun = await hostile('javascript', js);
    const jsSeen = JSON.parse(jsRun.result.stdout) as Record<string, string>;
    for (const t of targets) expect(jsSeen[t], t).toMatch(/^ERR /);
    expect(jsRun.result.stdout).not.toContain(secret);
  });

  it.concurrent('cannot write outside its small /tmp, and /tmp is capped in size and per file', async ({ expect }) => {
    const marker = `kvq-escape-${crypto.randomBytes(6).toString('hex')}`;
    const dataBefore = fs.readdirSync(app.dataDir).sort();
    const targets = ['/usr/' + marker, '/code/' + marker, '/' + marker, '/dev/' + marker, path.join(app.dataDir, marker), path.join(os.tmpdir(), marker)];
    const code = `import json, os, signal
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
out = {}
for p in ${JSON.stringify(targets)}:
    try:
        with open(p, "w") as f:
            f.write("escaped")
        out[p] = "written"
    except OSError as e:
        out[p] = "ERR " + type(e).__name__
try:
    with open("/tmp/big", "wb") as f:
        f.write(b"x" * (1024 * 1024 + 1))
    out["big"] = "written"
except OSError as e:
    out["big"] = "ERR " + str(e.errno)
filled = 0
try:
    for i in range(10):
        with open("/tmp/fill%d" % i, "wb") as f:
            f.write(b"x" * 900_000)
        filled += 1
except OSError as e:
    out["fill"] = "ERR " + str(e.errno)
out["filled"] = filled
print(json.dumps(out))`;
    const { result } = await hostile('python', code);
    const out = JSON.parse(result.stdout) as Record<string, string | number>;
    // /tmp inside is the sandbox's own tmpfs: the write "succeeds" there and never reaches the host
    for (const t of targets.slice(0, 5)) expect(out[t], t).toMatch(/^ERR /);
    expect(out['big']).toBe('ERR 27'); // EFBIG: RLIMIT_FSIZE (1 MiB)
    expect(out['fill']).toBe('ERR 28'); // ENOSPC: the 2 MiB tmpfs is full
    expect(out['filled']).toBeLessThan(3);
    const js = `const fs = require("fs"); const out = {};
for (const p of ${JSON.stringify(targets)}) { try { fs.writeFileSync(p, "escaped"); out[p] = "written"; } catch (e) { out[p] = "ERR " + e.code; } }
console.log(JSON.stringify(out));`;
    const jsOut = JSON.parse((await hostile('javascript', js)).result.stdout) as Record<string, string>;
    for (const t of targets.slice(0, 5)) expect(jsOut[t], t).toMatch(/^ERR (EROFS|EACCES|ENOENT)$/);
    expect(jsOut[targets[5]!]).toBe('written'); // into the sandbox's own /tmp
    for (const t of targets) expect(fs.existsSync(t), t).toBe(false);
    expect(fs.readdirSync(app.dataDir).sort()).toEqual(dataBefore);
  });
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
