import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { constants as osConstants } from 'node:os';
import type { SandboxCommand } from './sandbox-args.js';
import type { RunLimits, RunResult } from './types.js';

/**
 * Starts one sandboxed program and collects what it prints, enforcing from outside what the
 * kernel cannot: the wall time and the size of captured output. Either one kills the whole
 * process group with SIGKILL at once (no SIGTERM grace: hostile code may ignore SIGTERM).
 * Killing bwrap is enough to end everything inside: its child dies with it (--die-with-parent)
 * and that child is pid 1 of the sandbox's pid namespace, whose death kills every process there,
 * even ones that started their own session.
 */
export class SpawnFailedError extends Error {
  constructor(
    readonly errno: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'SpawnFailedError';
  }
}

export function runSandboxed(
  command: SandboxCommand,
  stdin: string,
  limits: Pick<RunLimits, 'wallMs' | 'outputBytes' | 'cpuSeconds'>,
  signal?: AbortSignal,
): Promise<RunResult> {
  const started = performance.now();
  return new Promise<RunResult>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    // detached: bwrap leads its own process group, so one kill(-pid) reaches it and its helpers.
    // fd 3 is bwrap's --info-fd: it reports the pid of the sandbox's init there (and closes it
    // before the program starts, so the program cannot write to it).
    const child = spawn(command.cmd, command.args, { shell: false, detached: true, stdio: ['pipe', 'pipe', 'pipe', 'pipe'], env: {} });
    const out = new CappedBuffer(limits.outputBytes);
    const err = new CappedBuffer(limits.outputBytes);
    let wallHit = false;
    let truncated = false;
    let aborted = false;
    let settled = false;

    const killer = new SandboxKiller(child.pid);
    child.once('exit', () => killer.exited());
    const info = child.stdio[3] as NodeJS.ReadableStream | null;
    let infoText = '';
    info?.on('data', (chunk: Buffer) => {
      if (infoText.length < 4096) infoText += chunk.toString('utf8');
      const m = /"child-pid":\s*(\d+)/.exec(infoText);
      if (m) killer.knowInit(Number(m[1]));
    });
    info?.on('error', () => {});
    const killGroup = () => killer.kill();
    const wallTimer = setTimeout(() => {
      wallHit = true;
      killGroup();
    }, limits.wallMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    const onData = (buf: CappedBuffer) => (chunk: Buffer) => {
      if (!buf.push(chunk) && !truncated) {
        truncated = true;
        killGroup();
      }
    };
    child.stdout.on('data', onData(out));
    child.stderr.on('data', onData(err));
    // the program may exit (or be killed) without reading its input
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);

    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(wallTimer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    child.on('error', (e: NodeJS.ErrnoException) =>
      finish(() => reject(new SpawnFailedError(e.code, `${command.cmd} could not be started: ${e.message}`))),
    );
    child.on('close', (code, sig) =>
      finish(() => {
        killer.exited();
        const runtimeMs = Math.round(performance.now() - started);
        if (aborted) {
          reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
          return;
        }
        const { exitCode, signal: progSignal } = decodeExit(code, sig);
        resolve({
          stdout: out.text(),
          stderr: err.text(),
          exitCode,
          runtimeMs,
          timedOut: wallHit || isCpuLimitKill(progSignal, runtimeMs, limits.cpuSeconds),
          outputTruncated: truncated,
          signal: wallHit || truncated ? 'SIGKILL' : progSignal,
        });
      }),
    );
  });
}

/**
 * bwrap reports a program killed by signal N as exit status 128 + N; a signal on bwrap itself
 * (our own kill) shows as `sig`. Either way the result carries the signal's name.
 */
export function decodeExit(code: number | null, sig: NodeJS.Signals | null): { exitCode: number; signal: string | null } {
  if (sig) return { exitCode: 128 + (osConstants.signals[sig] ?? 9), signal: sig };
  const exitCode = code ?? 1;
  if (exitCode > 128 && exitCode < 128 + 65) {
    const name = Object.entries(osConstants.signals).find(([, n]) => n === exitCode - 128)?.[0];
    if (name) return { exitCode, signal: name };
  }
  return { exitCode, signal: null };
}

/**
 * RLIMIT_CPU sends SIGXCPU at the soft limit and SIGKILL one second later (the hard limit) to a
 * program that ignores SIGXCPU. A SIGKILL we did not send is taken for that hard limit once the
 * run lasted at least half its CPU budget (two threads on two cores burn it in half the time).
 */
function isCpuLimitKill(signal: string | null, runtimeMs: number, cpuSeconds: number): boolean {
  if (signal === 'SIGXCPU') return true;
  return signal === 'SIGKILL' && runtimeMs >= cpuSeconds * 1000 * 0.5;
}

/**
 * Kills one sandbox, closing a race: bwrap's child sets its parent-death signal only after it
 * starts, so killing bwrap during set-up could leave that child (and the program) running,
 * holding our pipes. So a kill waits for bwrap to report the sandbox init's pid (--info-fd,
 * written right after the clone), then kills that init: its death ends every process in the
 * sandbox's pid namespace, and bwrap, which waits for it, reaps it and exits (killing bwrap too
 * would leave the init a zombie for the machine's init to reap). bwrap's whole process group
 * is killed when the report does not come, or bwrap is still there, a second later.
 */
const KILL_FALLBACK_MS = 1000;

class SandboxKiller {
  private initPid: number | undefined;
  private requested = false;
  private done = false;
  private gone = false;
  private fallback: NodeJS.Timeout | undefined;

  constructor(private readonly bwrapPid: number | undefined) {}

  knowInit(pid: number): void {
    if (this.initPid === undefined) this.initPid = pid;
    if (this.requested) this.now();
  }

  exited(): void {
    this.gone = true;
    if (this.fallback) clearTimeout(this.fallback);
  }

  kill(): void {
    if (this.requested) return;
    this.requested = true;
    this.fallback = setTimeout(() => this.killGroup(), KILL_FALLBACK_MS);
    if (this.initPid !== undefined) this.now();
  }

  private now(): void {
    if (this.done || this.gone) return;
    this.done = true;
    // the reported pid is only trusted while it is still bwrap's child
    if (this.initPid !== undefined && parentOf(this.initPid) === this.bwrapPid) signal(this.initPid);
    else this.killGroup();
  }

  private killGroup(): void {
    // once bwrap is reaped its pid (and group id) may belong to someone else
    if (this.gone || !this.bwrapPid) return;
    this.done = true;
    signal(-this.bwrapPid);
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function signal(target: number): void {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Keeps at most `cap` bytes; push() answers false once more than that arrived. */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly cap: number) {}

  push(chunk: Buffer): boolean {
    const room = this.cap - this.size;
    if (room > 0) this.chunks.push(room >= chunk.length ? chunk : chunk.subarray(0, room));
    this.size += chunk.length;
    return this.size <= this.cap;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
