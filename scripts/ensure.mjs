// Plain Node (no dependencies), so `npm start` and `npm test` work on a fresh clone before
// node_modules exists: checks Node, installs npm dependencies when missing or stale, and checks
// (and, as root with apt-get, installs) the Debian packages the service and tests use.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** tool -> Debian package; `need` says who needs it */
export const SYSTEM_TOOLS = [
  { bin: 'ffmpeg', pkg: 'ffmpeg', need: 'video download, frames, speech conversion' },
  { bin: 'ffprobe', pkg: 'ffmpeg', need: 'video checks' },
  { bin: 'yt-dlp', pkg: 'yt-dlp', need: 'video download' },
  { bin: 'espeak-ng', pkg: 'espeak-ng', need: 'offline companion voices' },
  { bin: 'pocketsphinx_batch', pkg: 'pocketsphinx', need: 'offline speech recognition' },
  { bin: null, file: '/usr/share/pocketsphinx/model/en-us/en-us', pkg: 'pocketsphinx-en-us', need: 'offline speech recognition (English model)' },
  { bin: 'bwrap', pkg: 'bubblewrap', need: "code quiz: the sandbox children's code runs in" },
  { bin: null, file: '/usr/bin/python3', pkg: 'python3', need: 'code quiz: Python problems (run inside the sandbox)' },
  { bin: 'setpriv', pkg: 'util-linux', need: 'code quiz: sandboxed code runs as an unprivileged user' },
  { bin: 'prlimit', pkg: 'util-linux', need: 'code quiz: resource limits inside the sandbox' },
];
/** the speech benchmark's cross-check voices, built from recorded speech (bench/speech.ts) */
export const BENCH_TOOLS = [{ bin: 'flite', pkg: 'flite', need: 'speech benchmark: voices built from recorded speech' }];
export const TEST_TOOLS = [
  { bin: 'chromium', pkg: 'chromium', need: 'browser tests' },
  { bin: 'sox', pkg: 'sox', need: 'test audio' },
  { file: '/usr/lib/postgresql', pkg: 'postgresql', need: 'the tests on the PostgreSQL engine (a throwaway cluster per run)' },
];

const log = (msg) => process.stdout.write(`[setup] ${msg}\n`);

export function ensureNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) {
    process.stderr.write(`Node ${process.versions.node} is too old: this service needs Node 20 or newer.\n`);
    process.exit(1);
  }
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

/** npm ci when node_modules is missing or older than package-lock.json. */
export function ensureDeps() {
  const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
  const lock = path.join(ROOT, 'package-lock.json');
  const stale = !fs.existsSync(marker) || fs.statSync(marker).mtimeMs < fs.statSync(lock).mtimeMs;
  if (!stale) return;
  // a node_modules shared by symlink (a git worktree borrowing another checkout's) is not ours to
  // reinstall: npm ci would empty the other checkout's folder through the link
  if (fs.lstatSync(path.join(ROOT, 'node_modules'), { throwIfNoEntry: false })?.isSymbolicLink()) {
    log('node_modules is a symbolic link to another checkout: not reinstalling it here (run npm ci where it lives if it is out of date)');
    return;
  }
  log('installing npm dependencies (npm ci; better-sqlite3 compiles from source, about 2 minutes)...');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  if (run(npm, ['ci', '--no-audit', '--no-fund']) !== 0) {
    process.stderr.write('npm ci failed: see the messages above.\n');
    process.exit(1);
  }
}

const onPath = (bin) => (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, bin)));

/**
 * Installs missing Debian packages with apt-get when running as root (CI, containers);
 * otherwise prints the one command to run. Set KVQ_NO_APT=1 to never install.
 */
export function ensureSystem(tools, { required }) {
  const missing = tools.filter((t) => (t.bin ? !onPath(t.bin) : !fs.existsSync(t.file)));
  if (missing.length === 0) return true;
  const pkgs = [...new Set(missing.map((t) => t.pkg))];
  const canApt = process.getuid?.() === 0 && onPath('apt-get') && process.env.KVQ_NO_APT !== '1';
  if (canApt) {
    log(`installing system packages: ${pkgs.join(' ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if (run('apt-get', ['update', '-qq'], { env }) === 0 && run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs], { env }) === 0) {
      return true;
    }
  }
  const lines = missing.map((t) => `  - ${t.bin ?? t.file} (Debian package ${t.pkg}): ${t.need}`);
  const msg = `Missing system tools:\n${lines.join('\n')}\nInstall them with:\n  sudo apt-get install -y ${pkgs.join(' ')}\n`;
  if (required) {
    process.stderr.write(msg);
    process.exit(1);
  }
  process.stderr.write(`${msg}The service starts anyway; the features above report a clear error until then.\n`);
  return false;
}
