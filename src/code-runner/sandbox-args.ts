import path from 'node:path';
import type { Language, RunLimits } from './types.js';

/**
 * Pure builder of the command line that runs one program under bubblewrap. Kept apart from the
 * runner so its exact output is unit-tested: every flag here is a security decision.
 */
export interface SandboxCommandInput {
  language: Language;
  limits: RunLimits;
  /** host directory holding the program (main.py / main.js), bound read-only at /code */
  codeDir: string;
  bwrapPath: string;
  pythonPath: string;
  nodePath: string;
  nodeHeapMb: number;
  tmpfsBytes: number;
  /** uid/gid to drop to before bwrap starts; null when the service is not root (it cannot switch) */
  dropToUid: number | null;
  /** run this instead of the interpreter (the health probe runs /usr/bin/true in the same box) */
  argv?: string[];
}

export interface SandboxCommand {
  cmd: string;
  args: string[];
}

export const CODE_MOUNT = '/code';
export const ENTRY_FILE: Record<Language, string> = { python: 'main.py', javascript: 'main.js' };

export function buildSandboxCommand(input: SandboxCommandInput): SandboxCommand {
  const { limits } = input;
  const program = path.posix.join(CODE_MOUNT, ENTRY_FILE[input.language]);
  const interpreter = input.argv
    ? input.argv
    : input.language === 'python'
      ? // -I: isolated mode (no user site-packages, no PYTHON* variables, script dir not on sys.path)
        [input.pythonPath, '-I', program]
      : // a separate node per run: the vm module is not a security boundary
        [input.nodePath, `--max-old-space-size=${input.nodeHeapMb}`, program];

  const bwrap = [
    // every namespace: no network (only a down loopback), own pid/ipc/uts/cgroup
    '--unshare-all',
    '--unshare-user',
    // code inside cannot make a user namespace of its own (a common kernel attack surface)
    '--disable-userns',
    // if the service dies, the sandbox dies with it
    '--die-with-parent',
    // bwrap writes the sandbox init's pid to fd 3 (the harness kills it directly: sandbox-process.ts)
    '--info-fd',
    '3',
    // new session: no TIOCSTI keystroke injection into a terminal the service may hold
    '--new-session',
    '--cap-drop',
    'ALL',
    '--clearenv',
    '--setenv',
    'PATH',
    '/usr/bin',
    '--setenv',
    'HOME',
    '/tmp',
    '--setenv',
    'LANG',
    'C.UTF-8',
    // the host's programs and libraries, read-only; no /etc, no /proc, no /home, no DATA_DIR
    '--ro-bind',
    '/usr',
    '/usr',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    ...(input.argv ? [] : extraInterpreterBinds(input.language === 'python' ? input.pythonPath : input.nodePath)),
    // a minimal /dev (null, zero, urandom, tty): Node and Python read urandom at start
    '--dev',
    '/dev',
    // the only writable place, in memory and size-capped
    '--size',
    String(input.tmpfsBytes),
    '--tmpfs',
    '/tmp',
    '--ro-bind',
    input.codeDir,
    CODE_MOUNT,
    // bwrap's root and /dev are writable tmpfs without a size cap: freeze them once set up
    // (device nodes such as /dev/null stay writable on a read-only mount)
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
    '--chdir',
    '/tmp',
    '--',
    // limits are set inside the sandbox: RLIMIT_NPROC counts per user (namespace), so set outside
    // it would be shared by every run. DATA, not AS: Node reserves a large address space at start.
    '/usr/bin/prlimit',
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--data=${limits.dataBytes}`,
    `--fsize=${limits.fileBytes}`,
    `--nproc=${limits.processes}`,
    '--nofile=64',
    '--core=0',
    '--',
    ...interpreter,
  ];

  if (input.dropToUid === null) return { cmd: input.bwrapPath, args: bwrap };
  // As root the kernel never applies RLIMIT_NPROC, so bwrap itself starts as an unprivileged user.
  const id = String(input.dropToUid);
  return { cmd: '/usr/bin/setpriv', args: [`--reuid=${id}`, `--regid=${id}`, '--clear-groups', '--', input.bwrapPath, ...bwrap] };
}

/**
 * An interpreter outside /usr (e.g. node from a tarball in /opt/node/bin/node) is bound alone,
 * read-only at its own path: binding its folder could expose whatever else lives there (a home
 * directory, the service itself). Node's binary needs nothing but the libraries in /usr/lib.
 */
export function extraInterpreterBinds(interpreterPath: string): string[] {
  const resolved = path.resolve(interpreterPath);
  if (resolved.startsWith('/usr/')) return [];
  return ['--ro-bind', resolved, resolved];
}
