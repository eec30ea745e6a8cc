import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

/**
 * The one small interface between the code quiz and whatever runs children's code:
 * the local bubblewrap sandbox (default) or a self-hosted Piston pool (CODE_RUNNER=piston).
 * Callers never learn which one they got, so scale-out is a setting, not a code change.
 */
export type Language = 'python' | 'javascript';
export const LANGUAGES: readonly Language[] = ['python', 'javascript'];

export interface RunLimits {
  wallMs: number;
  cpuSeconds: number;
  dataBytes: number;
  processes: number;
  fileBytes: number;
  outputBytes: number;
}

export interface RunRequest {
  language: Language;
  code: string;
  stdin: string;
  limits?: Partial<RunLimits>;
}

export interface RunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  runtimeMs: number;
  timedOut: boolean; // wall or CPU limit hit
  outputTruncated: boolean; // an output cap was hit and the process group killed
  signal: string | null;
}

export type RunnerHealth = { ok: true } | { ok: false; code: string; message: string; install?: string };

export interface CodeRunner {
  readonly name: 'sandbox' | 'piston';
  /** cached check: bubblewrap present and able to create namespaces (or Piston reachable) */
  health(): Promise<RunnerHealth>;
  /** runs one program once; rejects with AppError 429/503 (clear message, stable code) when the queue is full or the runner is unavailable */
  run(req: RunRequest, signal?: AbortSignal): Promise<RunResult>;
  close(): Promise<void>;
}

/** Signature of createCodeRunner in src/code-runner/index.ts. */
export type CreateCodeRunner = (config: Config, logger: Logger) => CodeRunner;
