import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config.js';
import { AppError, badRequest } from '../http/errors.js';
import type { Logger } from '../logger.js';
import { Limiter, LimiterFullError } from '../pipeline/limiter.js';
import { CodeDirs } from './code-dir.js';
import { configuredLimits, resolveLimits } from './limits.js';
import { buildSandboxCommand, type SandboxCommandInput } from './sandbox-args.js';
import { runSandboxed, SpawnFailedError } from './sandbox-process.js';
import { LANGUAGES, type CodeRunner, type Language, type RunnerHealth, type RunRequest, type RunResult } from './types.js';

/**
 * Runs children's code on this machine under bubblewrap (see sandbox-args.ts for every flag).
 * There is no unsandboxed path: when bubblewrap is missing or cannot create namespaces, every run
 * is refused with 503 and the package to install.
 */
export const BUBBLEWRAP_INSTALL = 'apt-get install bubblewrap';
/** how long a failed health check is trusted before it is tried again (someone may install bubblewrap) */
const FAILED_HEALTH_TTL_MS = 10_000;
const INSTALL_HINT: Record<Language, string> = { python: 'apt-get install python3', javascript: 'Node.js 20 (the one running this service)' };

/**
 * bubblewrap and setpriv report their own failures (a bind source the sandbox user cannot read,
 * namespaces refused) on stderr with their name first, before the program ever starts. A program
 * printing the same only earns itself a 503 and a fresh health check.
 */
const SETUP_FAILURE = /^(bwrap|setpriv): /;

class SandboxSetupError extends Error {
  constructor(stderr: string) {
    super(stderr.trim().split('\n')[0]!.slice(0, 300));
  }
}

export class SandboxRunner implements CodeRunner {
  readonly name = 'sandbox' as const;
  private readonly limiter: Limiter;
  private readonly dirs: CodeDirs;
  private readonly dropToUid: number | null;
  private base: Omit<SandboxCommandInput, 'language' | 'limits' | 'codeDir'>;
  private health_: { value: RunnerHealth; at: number } | undefined;
  private healthProbe: Promise<RunnerHealth> | undefined;

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
  ) {
    const slots = config.CODE_CONCURRENCY || os.availableParallelism();
    this.limiter = new Limiter(slots, config.CODE_QUEUE);
    // only root can switch users; a non-root service runs code as itself (RLIMIT_NPROC applies to it)
    this.dropToUid = process.getuid?.() === 0 ? config.CODE_SANDBOX_UID : null;
    this.dirs = new CodeDirs(this.dropToUid);
    this.base = {
      bwrapPath: config.BWRAP_PATH,
      pythonPath: config.CODE_PYTHON_PATH,
      nodePath: config.CODE_NODE_PATH ?? process.execPath,
      nodeHeapMb: config.CODE_NODE_HEAP_MB,
      tmpfsBytes: config.CODE_TMPFS_MB * 1024 * 1024,
      dropToUid: this.dropToUid,
    };
  }

  async health(): Promise<RunnerHealth> {
    const cached = this.health_;
    if (cached && (cached.value.ok || Date.now() - cached.at < FAILED_HEALTH_TTL_MS)) return cached.value;
    this.healthProbe ??= this.probe().then((value) => {
      this.health_ = { value, at: Date.now() };
      this.healthProbe = undefined;
      // not `code`: the logger redacts that key (it is how access codes are named)
      if (!value.ok) this.logger.warn({ error_code: value.code }, value.message);
      return value;
    });
    return this.healthProbe;
  }

  async run(req: RunRequest, signal?: AbortSignal): Promise<RunResult> {
    if (!LANGUAGES.includes(req.language)) {
      throw badRequest(`Unknown language. Supported: ${LANGUAGES.join(', ')}.`, { supported: LANGUAGES }, 'unsupported_language');
    }
    const health = await this.health();
    if (!health.ok) throw new AppError(503, health.code, health.message, health.install ? { install: health.install } : undefined);
    this.checkInterpreter(req.language);
    const limits = resolveLimits(configuredLimits(this.config), req.limits);
    try {
      return await this.limiter.run(async () => {
        const codeDir = await this.dirs.create(req.language, req.code);
        try {
          const command = buildSandboxCommand({ ...this.base, language: req.language, limits, codeDir });
          this.logger.debug({ cmd: command.cmd, args: command.args }, 'sandboxed run');
          const result = await runSandboxed(command, req.stdin, limits, signal);
          if (result.exitCode !== 0 && SETUP_FAILURE.test(result.stderr)) throw new SandboxSetupError(result.stderr);
          return result;
        } finally {
          await this.dirs.remove(codeDir);
        }
      }, signal);
    } catch (err) {
      if (err instanceof LimiterFullError) {
        throw new AppError(429, 'runner_busy', 'Many programs are running right now. Please try again in a moment.', { retry_after_seconds: 2 });
      }
      if (err instanceof SandboxSetupError) {
        this.health_ = undefined;
        this.logger.warn({ stderr: err.message }, 'sandbox setup failed');
        throw new AppError(503, 'sandbox_unavailable', `The code sandbox could not be set up: ${err.message}`, { install: BUBBLEWRAP_INSTALL });
      }
      if (err instanceof SpawnFailedError) {
        // bwrap or setpriv vanished since the health check: check again next time
        this.health_ = undefined;
        throw new AppError(503, 'sandbox_unavailable', `The code sandbox could not start: ${err.message}`, { install: BUBBLEWRAP_INSTALL });
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    this.dirs.close();
  }

  private checkInterpreter(language: Language): void {
    const file = language === 'python' ? this.base.pythonPath : this.base.nodePath;
    try {
      fs.accessSync(file, fs.constants.X_OK);
    } catch {
      throw new AppError(503, 'language_unavailable', `${language} is not installed on this server (${file}).`, { install: INSTALL_HINT[language] });
    }
  }

  /** Starts a real sandbox (same flags, same user) running /usr/bin/true. */
  private async probe(): Promise<RunnerHealth> {
    if (this.dropToUid !== null && !isExecutable('/usr/bin/setpriv')) {
      return { ok: false, code: 'sandbox_unavailable', message: 'setpriv is missing: the code sandbox cannot drop root.', install: 'apt-get install util-linux' };
    }
    const bwrapPath = findProgram(this.config.BWRAP_PATH);
    if (!bwrapPath) {
      return { ok: false, code: 'bubblewrap_missing', message: `bubblewrap (${this.config.BWRAP_PATH}) is not installed, so children's code cannot run.`, install: BUBBLEWRAP_INSTALL };
    }
    // an absolute path: setpriv and bwrap run with an empty environment
    this.base = { ...this.base, bwrapPath };
    const codeDir = await this.dirs.create('python', '');
    try {
      const limits = { ...configuredLimits(this.config), wallMs: 10_000 };
      const command = buildSandboxCommand({ ...this.base, language: 'python', limits, codeDir, argv: ['/usr/bin/true'] });
      const r = await runSandboxed(command, '', limits);
      if (r.exitCode === 0) return { ok: true };
      return {
        ok: false,
        code: 'sandbox_unavailable',
        message: `bubblewrap cannot create its namespaces here (${r.stderr.trim().slice(0, 300) || `exit ${r.exitCode}`}). Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or a container profile that permits them).`,
        install: BUBBLEWRAP_INSTALL,
      };
    } catch (err) {
      if (err instanceof SpawnFailedError && err.errno === 'ENOENT') {
        return { ok: false, code: 'bubblewrap_missing', message: `bubblewrap (${this.config.BWRAP_PATH}) is not installed, so children's code cannot run.`, install: BUBBLEWRAP_INSTALL };
      }
      return { ok: false, code: 'sandbox_unavailable', message: `The code sandbox could not start: ${(err as Error).message}`, install: BUBBLEWRAP_INSTALL };
    } finally {
      await this.dirs.remove(codeDir);
    }
  }
}

/** The system folders a bare program name is looked up in (nothing but config.ts reads the environment). */
const PROGRAM_DIRS = ['/usr/local/bin', '/usr/bin', '/bin'];

/** The absolute path of a program: as given when it holds a slash, else found in PROGRAM_DIRS. */
function findProgram(name: string): string | undefined {
  if (name.includes('/')) return isExecutable(name) ? path.resolve(name) : undefined;
  return PROGRAM_DIRS.map((d) => path.join(d, name)).find(isExecutable);
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
