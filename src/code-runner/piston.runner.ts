import os from 'node:os';
import { z } from 'zod';
import type { Config } from '../config.js';
import { AppError, badRequest } from '../http/errors.js';
import type { Logger } from '../logger.js';
import { Limiter, LimiterFullError } from '../pipeline/limiter.js';
import { configuredLimits, resolveLimits } from './limits.js';
import { ENTRY_FILE } from './sandbox-args.js';
import { LANGUAGES, type CodeRunner, type Language, type RunnerHealth, type RunRequest, type RunResult } from './types.js';

/**
 * Hands each run to a self-hosted Piston pool (engineer-man/piston, API v2): one
 * `POST /api/v2/execute` per test case. Piston enforces its own sandbox; we still bound the
 * queue, the request time and the captured output, and validate every answer with zod
 * (the pool is a network peer, not part of this process).
 */
const PISTON_LANGUAGE: Record<Language, string> = { python: 'python', javascript: 'javascript' };
const HEALTH_TTL_OK_MS = 60_000;
const HEALTH_TTL_FAILED_MS = 10_000;
/** time Piston gets beyond the run's wall limit to set up and answer */
const REQUEST_SLACK_MS = 10_000;

const stageSchema = z.object({
  stdout: z.string().default(''),
  stderr: z.string().default(''),
  code: z.number().int().nullable().default(null),
  signal: z.string().nullable().default(null),
  // newer Piston versions: TO time-out, OL/EL stdout/stderr too long, RE, SG, XX
  status: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
  wall_time: z.number().nullable().optional(),
});
const executeSchema = z.object({ run: stageSchema, compile: stageSchema.optional() });
const runtimesSchema = z.array(z.object({ language: z.string(), version: z.string(), aliases: z.array(z.string()).default([]) }));

export class PistonRunner implements CodeRunner {
  readonly name = 'piston' as const;
  private readonly base: string;
  private readonly limiter: Limiter;
  private health_: { value: RunnerHealth; at: number } | undefined;

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
  ) {
    this.base = config.PISTON_URL!.replace(/\/+$/, '');
    // the pool does the work; this bound only keeps our own sockets and queue small
    this.limiter = new Limiter(config.CODE_CONCURRENCY || os.availableParallelism() * 4, config.CODE_QUEUE);
  }

  async health(): Promise<RunnerHealth> {
    const c = this.health_;
    if (c && Date.now() - c.at < (c.value.ok ? HEALTH_TTL_OK_MS : HEALTH_TTL_FAILED_MS)) return c.value;
    const value = await this.probe();
    this.health_ = { value, at: Date.now() };
    return value;
  }

  async run(req: RunRequest, signal?: AbortSignal): Promise<RunResult> {
    if (!LANGUAGES.includes(req.language)) {
      throw badRequest(`Unknown language. Supported: ${LANGUAGES.join(', ')}.`, { supported: LANGUAGES }, 'unsupported_language');
    }
    const limits = resolveLimits(configuredLimits(this.config), req.limits);
    const body = {
      language: PISTON_LANGUAGE[req.language],
      version: req.language === 'python' ? this.config.PISTON_PYTHON_VERSION : this.config.PISTON_JAVASCRIPT_VERSION,
      files: [{ name: ENTRY_FILE[req.language], content: req.code }],
      stdin: req.stdin,
      run_timeout: limits.wallMs,
      run_cpu_time: limits.cpuSeconds * 1000,
      run_memory_limit: limits.dataBytes,
    };
    try {
      return await this.limiter.run(() => this.execute(body, limits.outputBytes, limits.wallMs, signal), signal);
    } catch (err) {
      if (err instanceof LimiterFullError) {
        throw new AppError(429, 'runner_busy', 'Many programs are running right now. Please try again in a moment.', { retry_after_seconds: 2 });
      }
      throw err;
    }
  }

  async close(): Promise<void> {}

  private async execute(body: object, outputBytes: number, wallMs: number, signal?: AbortSignal): Promise<RunResult> {
    const started = performance.now();
    const timeout = AbortSignal.timeout(wallMs + REQUEST_SLACK_MS);
    const res = await this.request('/api/v2/execute', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    }, signal);
    const roundTripMs = Math.round(performance.now() - started);
    const json = await res.json().catch(() => undefined);
    if (res.status === 429) throw new AppError(429, 'runner_busy', 'The code runners are busy. Please try again in a moment.', { retry_after_seconds: 2 });
    if (!res.ok) {
      const message = (json as { message?: unknown } | undefined)?.message;
      this.logger.warn({ status: res.status, message }, 'piston refused a run');
      throw new AppError(503, 'piston_failed', `The code runner refused the run (${res.status}${typeof message === 'string' ? `: ${message.slice(0, 200)}` : ''}).`);
    }
    const parsed = executeSchema.safeParse(json);
    if (!parsed.success) throw new AppError(503, 'piston_failed', 'The code runner sent an answer this service does not understand.');
    const run = parsed.data.run;
    const stdout = capText(run.stdout, outputBytes);
    const stderr = capText(run.stderr, outputBytes);
    const timedOut = run.status === 'TO' || (run.status == null && run.signal === 'SIGKILL' && roundTripMs >= wallMs);
    return {
      stdout: stdout.text,
      stderr: stderr.text,
      exitCode: run.code ?? (run.signal ? 128 + signalNumber(run.signal) : 1),
      runtimeMs: typeof run.wall_time === 'number' ? Math.round(run.wall_time) : roundTripMs,
      timedOut,
      outputTruncated: stdout.cut || stderr.cut || run.status === 'OL' || run.status === 'EL',
      signal: run.signal,
    };
  }

  private async probe(): Promise<RunnerHealth> {
    try {
      const res = await this.request('/api/v2/runtimes', { signal: AbortSignal.timeout(5000) });
      const runtimes = runtimesSchema.safeParse(await res.json().catch(() => undefined));
      if (!res.ok || !runtimes.success) return { ok: false, code: 'piston_unavailable', message: `The Piston pool at ${this.base} answered ${res.status} to /api/v2/runtimes.` };
      const missing = LANGUAGES.filter(
        (l) => !runtimes.data.some((r) => r.language === PISTON_LANGUAGE[l] || r.aliases.includes(PISTON_LANGUAGE[l])),
      );
      if (missing.length) {
        return { ok: false, code: 'piston_runtime_missing', message: `The Piston pool has no ${missing.join(' or ')} runtime.`, install: `piston ppman install ${missing.map((l) => (l === 'javascript' ? 'node' : l)).join(' ')}` };
      }
      return { ok: true };
    } catch (err) {
      if (err instanceof AppError) return { ok: false, code: err.code, message: err.message };
      return { ok: false, code: 'piston_unavailable', message: `The Piston pool at ${this.base} cannot be reached.` };
    }
  }

  /** fetch with network failures and time-outs turned into 503 piston_unavailable; the caller's own abort passes through */
  private async request(pathname: string, init: RequestInit, callerSignal?: AbortSignal): Promise<Response> {
    try {
      return await fetch(`${this.base}${pathname}`, init);
    } catch (err) {
      if (callerSignal?.aborted) throw err;
      this.logger.warn({ err: (err as Error).message, url: `${this.base}${pathname}` }, 'piston unreachable');
      throw new AppError(503, 'piston_unavailable', 'The code runner cannot be reached right now. Please try again later.');
    }
  }
}

/** Cuts a string to at most `bytes` UTF-8 bytes (the same cap the local sandbox applies). */
function capText(s: string, bytes: number): { text: string; cut: boolean } {
  const buf = Buffer.from(s, 'utf8');
  if (buf.length <= bytes) return { text: s, cut: false };
  return { text: buf.subarray(0, bytes).toString('utf8'), cut: true };
}

function signalNumber(name: string): number {
  return (os.constants.signals as Record<string, number>)[name] ?? 9;
}
