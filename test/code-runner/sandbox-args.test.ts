import { describe, expect, it } from 'vitest';
import { buildSandboxCommand, extraInterpreterBinds, type SandboxCommandInput } from '../../src/code-runner/sandbox-args.js';
import { resolveLimits } from '../../src/code-runner/limits.js';
import { decodeExit } from '../../src/code-runner/sandbox-process.js';
import type { RunLimits } from '../../src/code-runner/types.js';

const limits: RunLimits = { wallMs: 3000, cpuSeconds: 2, dataBytes: 268435456, processes: 32, fileBytes: 1048576, outputBytes: 65536 };
const input: SandboxCommandInput = {
  language: 'python',
  limits,
  codeDir: '/tmp/kvq-code-x/run-y',
  bwrapPath: '/usr/bin/bwrap',
  pythonPath: '/usr/bin/python3',
  nodePath: '/usr/bin/node',
  nodeHeapMb: 64,
  tmpfsBytes: 16777216,
  dropToUid: 65534,
};

const BOX = [
  '--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--info-fd', '3', '--new-session', '--cap-drop', 'ALL', '--clearenv',
  '--setenv', 'PATH', '/usr/bin', '--setenv', 'HOME', '/tmp', '--setenv', 'LANG', 'C.UTF-8',
  '--ro-bind', '/usr', '/usr', '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64',
  '--dev', '/dev', '--size', '16777216', '--tmpfs', '/tmp', '--ro-bind', '/tmp/kvq-code-x/run-y', '/code',
  '--remount-ro', '/dev', '--remount-ro', '/', '--chdir', '/tmp', '--',
  '/usr/bin/prlimit', '--cpu=2:3', '--data=268435456', '--fsize=1048576', '--nproc=32', '--nofile=64', '--core=0', '--',
];

describe('buildSandboxCommand', () => {
  it('drops root to the sandbox uid with setpriv, then runs python -I under bwrap with the limits set inside', () => {
    expect(buildSandboxCommand(input)).toEqual({
      cmd: '/usr/bin/setpriv',
      args: ['--reuid=65534', '--regid=65534', '--clear-groups', '--', '/usr/bin/bwrap', ...BOX, '/usr/bin/python3', '-I', '/code/main.py'],
    });
  });

  it('runs JavaScript as a separate node with a small heap, and bwrap directly when the service is not root', () => {
    expect(buildSandboxCommand({ ...input, language: 'javascript', dropToUid: null })).toEqual({
      cmd: '/usr/bin/bwrap',
      args: [...BOX, '/usr/bin/node', '--max-old-space-size=64', '/code/main.js'],
    });
  });

  it('binds an interpreter installed outside /usr alone, read-only at its own path (never its folder)', () => {
    const { args } = buildSandboxCommand({ ...input, language: 'javascript', nodePath: '/opt/node-v20/bin/node', dropToUid: null });
    const i = args.indexOf('/opt/node-v20/bin/node');
    expect(args.slice(i - 1, i + 2)).toEqual(['--ro-bind', '/opt/node-v20/bin/node', '/opt/node-v20/bin/node']);
    expect(i).toBeLessThan(args.indexOf('--dev'));
    expect(args.at(-3)).toBe('/opt/node-v20/bin/node');
    expect(extraInterpreterBinds('/usr/local/bin/node')).toEqual([]);
    expect(extraInterpreterBinds('/node')).toEqual(['--ro-bind', '/node', '/node']);
  });

  it('never binds the host root, /proc, /etc or /home', () => {
    const { args } = buildSandboxCommand(input);
    expect(args).not.toContain('--proc');
    expect(args.join(' ')).not.toMatch(/ \/etc| \/home| \/root| \/proc/);
    expect(args.filter((a) => a === '--bind')).toEqual([]);
  });
});

describe('resolveLimits', () => {
  it('lets a caller tighten limits but never loosen them, and ignores nonsense', () => {
    expect(resolveLimits(limits, { wallMs: 500, cpuSeconds: 99, processes: -1, dataBytes: 1.5 })).toEqual({ ...limits, wallMs: 500 });
    expect(resolveLimits(limits, undefined)).toEqual(limits);
  });
});

describe('decodeExit', () => {
  it("reads bwrap's 128+N as the program's signal and keeps plain exit codes", () => {
    expect(decodeExit(0, null)).toEqual({ exitCode: 0, signal: null });
    expect(decodeExit(3, null)).toEqual({ exitCode: 3, signal: null });
    expect(decodeExit(137, null)).toEqual({ exitCode: 137, signal: 'SIGKILL' });
    expect(decodeExit(152, null)).toEqual({ exitCode: 152, signal: 'SIGXCPU' });
    expect(decodeExit(null, 'SIGKILL')).toEqual({ exitCode: 137, signal: 'SIGKILL' });
  });
});
