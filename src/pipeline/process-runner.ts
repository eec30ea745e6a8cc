import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.js';

/**
 * The one way the service starts a child process: an argument array (never a shell), a time-out
 * and an abort signal that kill the whole process group, the tail of stderr kept for error
 * messages, a non-zero exit turned into a ProcessError, and a missing binary turned into a
 * BinaryMissingError that names the Debian package to install.
 */
export interface RunOptions {
  /** kill the process (and its children) after this long; default 10 minutes */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** written to stdin, which is then closed (stdin is /dev/null otherwise) */
  input?: Buffer | string;
  /** the command line is logged at debug through it */
  logger?: Logger;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** stdout beyond this is an error (guards memory); default 256 MiB */
  maxStdoutBytes?: number;
  /** how much of stderr to keep; default 16 KiB (the end of it) */
  stderrTailBytes?: number;
  /** called with each complete stderr line (progress parsing) */
  onStderrLine?: (line: string) => void;
  /** called with each complete stdout line (yt-dlp's --newline progress, ffmpeg's -progress pipe:1) */
  onStdoutLine?: (line: string) => void;
  /** arguments to show as [redacted] in logs and error messages */
  secretArgs?: string[];
}

export interface RunResult {
  stdout: Buffer;
  /** the last `stderrTailBytes` of stderr */
  stderr: string;
  code: number;
  durationMs: number;
}

export type ProcessFailure = 'exit' | 'timeout' | 'aborted' | 'spawn' | 'output_too_large';

export class ProcessError extends Error {
  constructor(
    message: string,
    readonly kind: ProcessFailure,
    readonly command: string,
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
    readonly stdout: Buffer = Buffer.alloc(0),
  ) {
    super(message);
    this.name = 'ProcessError';
  }
}

export class BinaryMissingError extends ProcessError {
  constructor(
    command: string,
    args: readonly string[],
    readonly binary: string,
    readonly debianPackage: string,
    readonly setting: string | undefined,
  ) {
    super(
      `${binary} was not found (${command}). Install it with "apt-get install ${debianPackage}"` +
        (setting ? ` or set ${setting} to its path.` : '.'),
      'spawn',
      command,
      args,
      null,
      '',
    );
    this.name = 'BinaryMissingError';
  }
}

/** Debian package and setting for each external tool the service runs. */
export const BINARIES: Record<string, { debianPackage: string; setting?: string }> = {
  'yt-dlp': { debianPackage: 'yt-dlp', setting: 'YTDLP_PATH' },
  ffmpeg: { debianPackage: 'ffmpeg', setting: 'FFMPEG_PATH' },
  ffprobe: { debianPackage: 'ffmpeg', setting: 'FFPROBE_PATH' },
  'espeak-ng': { debianPackage: 'espeak-ng', setting: 'ESPEAK_PATH' },
  pocketsphinx_batch: { debianPackage: 'pocketsphinx pocketsphinx-en-us', setting: 'POCKETSPHINX_PATH' },
  pocketsphinx_continuous: { debianPackage: 'pocketsphinx pocketsphinx-en-us' },
  sox: { debianPackage: 'sox' },
  chromium: { debianPackage: 'chromium' },
};

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
/** after SIGTERM, how long a process group gets before SIGKILL */
export const KILL_GRACE_MS = 2000;
/** after SIGKILL, how long to wait for the group to be gone before giving up on it (a process stuck in the kernel) */
const AFTER_KILL_WAIT_MS = 2000;
const GROUP_POLL_MS = 50;

export function runProcess(cmd: string, args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxStdout = opts.maxStdoutBytes ?? 256 * 1024 * 1024;
  const tailBytes = opts.stderrTailBytes ?? 16 * 1024;
  const shown = displayArgs(args, opts.secretArgs);
  opts.logger?.debug({ cmd, args: shown, timeoutMs }, 'run process');
  const started = Date.now();

  return new Promise<RunResult>((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(new ProcessError(`${path.basename(cmd)} was cancelled before it started.`, 'aborted', cmd, shown, null, ''));
      return;
    }
    // detached: the child leads its own process group, so a time-out also kills what it
    // started (yt-dlp runs ffmpeg for merging).
    const child = spawn(cmd, args, {
      shell: false,
      detached: true,
      cwd: opts.cwd,
      env: opts.env,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });

    const out: Buffer[] = [];
    let outBytes = 0;
    let errTail = '';
    let lineBuf = '';
    let failure: ProcessFailure | undefined;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;

    let killedAt = 0;
    // The group gets SIGTERM, then SIGKILL after the grace period. The timer is not unref'd:
    // during a shutdown it keeps the server alive until the group is really gone, and the
    // promise settles only then (see 'close'), so the caller removes partial files after the
    // last writer has died. The leader may have exited already while its children live on.
    const kill = (why: ProcessFailure) => {
      if (failure || settled) return;
      failure = why;
      killedAt = Date.now();
      signalGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => kill('timeout'), timeoutMs);
    timer.unref();
    const onAbort = () => kill('aborted');
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      fn();
    };

    let outLineBuf = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxStdout) {
        kill('output_too_large');
        return;
      }
      out.push(chunk);
      if (opts.onStdoutLine) {
        outLineBuf = (outLineBuf + chunk.toString('utf8')).slice(-64 * 1024);
        const lines = outLineBuf.split(/\r?\n|\r/);
        outLineBuf = lines.pop() ?? '';
        for (const line of lines) if (line) opts.onStdoutLine(line);
      }
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      errTail = (errTail + chunk).slice(-tailBytes);
      if (opts.onStderrLine) {
        lineBuf += chunk;
        const lines = lineBuf.split(/\r?\n|\r/);
        lineBuf = lines.pop() ?? '';
        for (const line of lines) if (line) opts.onStderrLine(line);
      }
    });
    if (opts.input !== undefined) {
      child.stdin!.on('error', () => {
        // the process may exit without reading its input; the exit code tells the story
      });
      child.stdin!.end(opts.input);
    }

    child.on('error', (err: NodeJS.ErrnoException) => {
      finish(() => {
        if (err.code === 'ENOENT') {
          const binary = path.basename(cmd);
          const known = BINARIES[binary];
          reject(new BinaryMissingError(cmd, shown, binary, known?.debianPackage ?? binary, known?.setting));
        } else {
          reject(new ProcessError(`${path.basename(cmd)} could not be started: ${err.message}`, 'spawn', cmd, shown, null, errTail));
        }
      });
    });

    child.on('close', async (code, sig) => {
      if (failure && !settled) await groupGone(child.pid, killedAt + KILL_GRACE_MS + AFTER_KILL_WAIT_MS, opts.logger);
      finish(() => {
        const stdout = Buffer.concat(out);
        const durationMs = Date.now() - started;
        const name = path.basename(cmd);
        if (failure === 'timeout') {
          reject(new ProcessError(`${name} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped.`, 'timeout', cmd, shown, code, errTail, stdout));
        } else if (failure === 'aborted') {
          reject(new ProcessError(`${name} was cancelled.`, 'aborted', cmd, shown, code, errTail, stdout));
        } else if (failure === 'output_too_large') {
          reject(new ProcessError(`${name} wrote more than ${maxStdout} bytes.`, 'output_too_large', cmd, shown, code, errTail));
        } else if (code !== 0) {
          const why = code === null ? `was killed by ${sig}` : `exited with code ${code}`;
          reject(new ProcessError(`${name} ${why}: ${lastLines(errTail, 3)}`, 'exit', cmd, shown, code, errTail, stdout));
        } else {
          opts.logger?.debug({ cmd, durationMs }, 'process done');
          resolve({ stdout, stderr: errTail, code: 0, durationMs });
        }
      });
    });
  });
}

/** The last non-empty lines of a stderr tail, for a one-line message. */
export function lastLines(text: string, n: number): string {
  return text
    .split(/\r?\n|\r/)
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-n)
    .join(' | ');
}

function displayArgs(args: readonly string[], secrets: string[] | undefined): string[] {
  if (!secrets?.length) return [...args];
  return args.map((a) => (secrets.includes(a) ? '[redacted]' : a));
}

/**
 * Resolves when no live process is left in the group (zombies waiting for a reaper count as
 * gone: they run nothing and hold no files), or at `deadline`.
 */
async function groupGone(pgid: number | undefined, deadline: number, logger: Logger | undefined): Promise<void> {
  if (!pgid) return;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) {
      logger?.warn({ pgid }, 'a process group survived SIGKILL');
      return;
    }
    await new Promise((r) => setTimeout(r, GROUP_POLL_MS));
  }
}

/** Whether a process of group `pgid` still runs: /proc on Linux, else a signal 0 probe. */
export function groupAlive(pgid: number): boolean {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}

function signalGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, sig);
  } catch {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}
