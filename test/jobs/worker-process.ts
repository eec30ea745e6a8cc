import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { until } from './slow-server.js';

/**
 * A real `npm run worker` process (src/worker.ts through tsx; or another script, e.g. the pg-boss
 * tests' worker) for tests: started with the given settings, ready once it logged "worker ready". `stop(signal)` sends the signal and resolves
 * with how it exited.
 */
export interface WorkerProcess {
  proc: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: string | null }>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: string | null }>;
}

const REPO = path.resolve(import.meta.dirname, '../..');

export async function startWorker(env: Record<string, string>, script = 'src/worker.ts', args: string[] = []): Promise<WorkerProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: REPO,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'info', DEMO_SEED: 'false', SAMPLE_IMPORT: 'false', VOICE_PRERENDER: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout!.on('data', (d) => (output = (output + d).slice(-20_000)));
  proc.stderr!.on('data', (d) => (output = (output + d).slice(-20_000)));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  let gone = false;
  void exited.then(() => (gone = true));
  await until(() => {
    if (gone) throw new Error(`the worker exited before it was ready:\n${output}`);
    return output.includes('worker ready') ? true : undefined;
  });
  return {
    proc,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (!gone) proc.kill(signal);
      return exited;
    },
  };
}
