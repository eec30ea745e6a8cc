import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The service as real separate processes (a web instance or a job worker), each with its own
 * DATA_DIR, for tests and benchmarks of several instances on one database (issue #18). Runs the
 * TypeScript sources through tsx, so no build is needed, or with `built: true` the built
 * `dist/server.js` / `dist/worker.js` as `npm start` runs them (build first: scripts/build.mjs).
 * No vitest import: benches use it too.
 */
export interface InstanceProcess {
  kind: 'server' | 'worker';
  proc: ChildProcess;
  dataDir: string;
  /** http://127.0.0.1:PORT for a web instance; '' for a worker */
  url: string;
  /** everything the process printed so far (stdout and stderr), for failure messages */
  output(): string;
  /** SIGTERM (or the given signal) and wait for the exit; returns the exit code or signal */
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * tsx's loader in the service's own process (`node --import tsx`), not tsx's CLI: the CLI runs
 * the script in a child process, so a SIGKILL of `proc` killed only the wrapper and left the
 * service running as an orphan. Now `proc` is the service, and a kill is a real kill.
 */
const TSX_DIST = path.join(ROOT, 'node_modules', 'tsx', 'dist');
const TSX_FLAGS = ['--require', path.join(TSX_DIST, 'preflight.cjs'), '--import', pathToFileURL(path.join(TSX_DIST, 'loader.mjs')).href];

/**
 * Starts `src/server.ts` (waits for its `listening` log line and reads the port; with a fixed
 * `PORT` in `env`, an answer from its /health counts too, so LOG_LEVEL may be above info) or
 * `src/worker.ts` (waits for a log line whose msg includes `readyText`). The environment is the
 * parent's minus provider keys, plus quiet defaults, plus `env`.
 */
export async function startInstance(
  kind: 'server' | 'worker',
  env: Record<string, string>,
  opts: { readyText?: string; timeoutMs?: number; built?: boolean } = {},
): Promise<InstanceProcess> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), `kvq-${kind}-`));
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(childEnv)) if (/_API_KEY$|^OPENAI_|^ANTHROPIC_|^GEMINI_/.test(k)) delete childEnv[k];
  Object.assign(childEnv, {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    DEMO_SEED: 'false',
    SAMPLE_IMPORT: 'false',
    VOICE_PRERENDER: 'false',
    DATA_DIR: dataDir,
    ...env,
  });
  const entry = opts.built ? path.join(ROOT, 'dist', `${kind}.js`) : path.join(ROOT, 'src', `${kind}.ts`);
  const proc = spawn(process.execPath, opts.built ? [entry] : [...TSX_FLAGS, entry], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let settled = false;
  const exited = new Promise<number | string | null>((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal)));
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} did not start within ${opts.timeoutMs ?? 60_000} ms:\n${out}`)), opts.timeoutMs ?? 60_000);
    const fixedPort = kind === 'server' && Number(childEnv.PORT) > 0 ? Number(childEnv.PORT) : 0;
    const done = (url: string) => {
      settled = true;
      clearTimeout(timer);
      resolve(url);
    };
    if (fixedPort) void pollHealth(`http://127.0.0.1:${fixedPort}`, () => settled || proc.exitCode !== null).then((url) => url && done(url));
    const onData = (d: Buffer) => {
      out += d.toString();
      // once ready, keep the output for messages only (a bench's server may log for minutes)
      if (settled) {
        if (out.length > 200_000) out = out.slice(-100_000);
        return;
      }
      for (const line of out.split('\n')) {
        if (!line.startsWith('{')) continue;
        let rec: { msg?: string; port?: number };
        try {
          rec = JSON.parse(line);
        } catch {
          continue;
        }
        if (kind === 'server' && rec.msg === 'listening' && rec.port) {
          done(`http://127.0.0.1:${rec.port}`);
          return;
        } else if (kind === 'worker' && rec.msg?.includes(opts.readyText ?? 'worker')) {
          done('');
          return;
        }
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
      if (settled && out.length > 200_000) out = out.slice(-100_000);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${kind} exited (${code}) before it was ready:\n${out}`));
    });
  });
  const url = await ready;
  return {
    kind,
    proc,
    dataDir,
    url,
    output: () => out,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/** Polls `base`/health until it answers 200 (returns base) or `stopped()` says to give up (returns ''). */
async function pollHealth(base: string, stopped: () => boolean): Promise<string> {
  while (!stopped()) {
    const ok = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return base;
    await new Promise((r) => setTimeout(r, 100));
  }
  return '';
}
