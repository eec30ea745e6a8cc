import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startTempApp, type TempApp } from '../helpers/temp-app.js';
import { HostileKit, TEST_LIMITS } from './sandbox-helpers.js';

/**
 * Children's code is hostile: each case below tries one kind of harm (what it can see, reach,
 * read and write) and asserts, from outside the sandbox, that it did not happen. The cases run in
 * parallel, each on its own sandbox uid. Resource abuse is in sandbox-resources.test.ts.
 */
const SANDBOX_ROOT_ENTRIES = ['bin', 'code', 'dev', 'lib', 'lib64', 'tmp', 'usr'];

let app: TempApp;
let listener: net.Server;
let listenerPort = 0;
let loopbackConnections = 0;
const kit = new HostileKit(() => app.config, 0);
const hostile = kit.hostile.bind(kit);

beforeAll(async () => {
  app = await startTempApp(TEST_LIMITS);
  listener = net.createServer((socket) => {
    loopbackConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
  listenerPort = (listener.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await kit.close();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  await app?.close();
});

describe('sandbox: identity and view of the machine', () => {
  it.concurrent('runs Python as the unprivileged sandbox user with no groups, seeing only /usr, /code, /tmp, /dev', async ({ expect }) => {
    const { result, uid, runner } = await hostile('python', 'import os, json\nprint(json.dumps([os.getuid(), os.getgid(), os.getgroups(), sorted(os.listdir("/"))]))');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([uid, uid, [], SANDBOX_ROOT_ENTRIES]);
    await kit.expectCleanAfter(runner, uid);
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
