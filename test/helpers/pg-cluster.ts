import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: Debian's server binaries, a temp
 * folder, a free loopback port, `fsync=off`. No vitest import, so benches and scripts use it too.
 *
 * `TEST_DATABASE_URL` (an existing server the tests may create databases on) wins over starting
 * one. initdb refuses to run as root, so as root the cluster runs as the `postgres` user, which
 * must be able to walk into the temp folder (mode 0711).
 */
export interface PgCluster {
  /** a superuser URL of the cluster's `postgres` database */
  url: string;
  /** stops the cluster and removes its folder (no-op for TEST_DATABASE_URL) */
  stop(): Promise<void>;
  /**
   * the postmaster's process id (its backends are its children), for benches that read the
   * server's CPU time from /proc; undefined for TEST_DATABASE_URL (not ours to measure)
   */
  postmasterPid?: number;
}

/** Debian's PostgreSQL server binaries (`/usr/lib/postgresql/<version>/bin`), newest first, or null. */
export function findPgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0]!, 'bin') : null;
}

/** Whether PostgreSQL tests can run here: a URL was given or the server binaries are installed. */
export function postgresAvailable(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL) || findPgBin() !== null;
}

/** A free TCP port on 127.0.0.1 (closed again before it is returned: a small race, fine for tests). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, proc: ChildProcess, log: () => string): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`postgres exited (${proc.exitCode}) before it was ready:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() - started > 30_000) throw new Error(`postgres did not accept connections within 30 s:\n${log()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function startPgCluster(): Promise<PgCluster> {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, stop: async () => undefined };
  const bin = findPgBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found (apt-get install postgresql), and TEST_DATABASE_URL is not set');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-pg-'));
  fs.chmodSync(root, 0o711);
  const dataDir = path.join(root, 'data');
  const sockDir = path.join(root, 'sock');
  fs.mkdirSync(sockDir);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', sockDir]);
  const run = (cmd: string, args: string[]) => (asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]) as [string, string[]];
  const [initCmd, initArgs] = run(path.join(bin, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
  if (asRoot) {
    fs.mkdirSync(dataDir, { mode: 0o700 });
    execFileSync('chown', ['postgres:postgres', dataDir]);
  }
  execFileSync(initCmd, initArgs, { stdio: 'pipe' });
  const port = await freePort();
  const [cmd, args] = run(path.join(bin, 'postgres'), [
    '-D', dataDir, '-p', String(port), '-k', sockDir,
    '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
    '-c', 'max_connections=300',
  ]);
  let output = '';
  const proc = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  proc.stdout?.on('data', (d) => (output = (output + d).slice(-4000)));
  proc.stderr?.on('data', (d) => (output = (output + d).slice(-4000)));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    if (proc.exitCode === null) {
      const exited = new Promise<void>((r) => proc.once('exit', () => r()));
      try {
        process.kill(-proc.pid!, 'SIGINT'); // fast shutdown
      } catch {
        /* already gone */
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-proc.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    await waitReady(url, proc, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  // postmaster.pid's first line; as root, proc.pid is runuser's, not the server's
  const pidLine = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0];
  return { url, stop, postmasterPid: Number(pidLine) || undefined };
}

/**
 * A new empty database on the cluster, for one test file or one bench run: returns its URL and a
 * drop function (which ends the database's other connections first).
 */
export async function createTestDatabase(clusterUrl: string, prefix = 't'): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`.toLowerCase();
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(clusterUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: clusterUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
