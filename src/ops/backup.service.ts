import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

/**
 * Backups of a data folder: the SQLite file through SQLite's online backup API (a consistent
 * copy while the service keeps running and writing), the server secret (without it the stored
 * access codes can be neither checked nor shown again), and optionally the media folder. With
 * media in an S3 bucket (S3_BUCKET) the media are not copied: the bucket's own versioning and
 * replication are the tool for them (a copy of a district's videos on one disk would be neither
 * small nor the right place), and the manifest says so.
 * A backup is written to `<BACKUP_DIR>/<UTC time>.partial/` and renamed when complete, so a
 * folder without `.partial` is always whole.
 */
export const DB_FILE = 'app.sqlite';
export const SECRET_FILE = 'secret.key';
export const MEDIA_DIR = 'videos';
export const MANIFEST_FILE = 'backup.json';

/** rows counted into the manifest, and checked again after a restore */
const COUNTED = ['experts', 'parents', 'children', 'videos', 'review_questions', 'quiz_attempts'] as const;
/** a backup folder's name: its UTC creation time, sortable (2026-11-26T01-30-00Z) */
const BACKUP_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(-\d+)?Z$/;

export interface BackupManifest {
  created_at: string;
  schema_version: number;
  media: boolean;
  /** why media were left out although asked for (they live in a bucket) */
  media_note?: string;
  secret: boolean;
  counts: Record<string, number>;
}

export interface BackupResult {
  dir: string;
  manifest: BackupManifest;
  bytes: number;
}

export async function backupDataDir(
  dataDir: string,
  backupDir: string,
  opts: { media: boolean; now?: Date; /** where the media live when not in dataDir (s3://bucket/prefix/) */ mediaBucket?: string },
): Promise<BackupResult> {
  const source = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(source)) throw new BackupError(`No database at ${source}: nothing to back up.`);
  fs.mkdirSync(backupDir, { recursive: true, mode: 0o700 });
  const name = uniqueName(backupDir, (opts.now ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-'));
  const partial = path.join(backupDir, `${name}.partial`);
  fs.mkdirSync(partial, { mode: 0o700 });
  try {
    // a separate connection that only reads: the running service's own writes carry on meanwhile
    const db = new BetterSqlite3(source, { fileMustExist: true });
    try {
      await db.backup(path.join(partial, DB_FILE));
    } finally {
      db.close();
    }
    const secret = fs.existsSync(path.join(dataDir, SECRET_FILE));
    if (secret) fs.copyFileSync(path.join(dataDir, SECRET_FILE), path.join(partial, SECRET_FILE));
    if (secret) fs.chmodSync(path.join(partial, SECRET_FILE), 0o600);
    const media = opts.media && !opts.mediaBucket && fs.existsSync(path.join(dataDir, MEDIA_DIR));
    if (media) fs.cpSync(path.join(dataDir, MEDIA_DIR), path.join(partial, MEDIA_DIR), { recursive: true, filter: (src) => !path.basename(src).startsWith('.') });
    const note =
      opts.media && opts.mediaBucket
        ? `media not copied: they live in ${opts.mediaBucket}; protect them with the bucket's versioning and replication`
        : undefined;
    const manifest: BackupManifest = { created_at: new Date().toISOString(), ...inspect(path.join(partial, DB_FILE)), media, ...(note ? { media_note: note } : {}), secret };
    fs.writeFileSync(path.join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    const dir = path.join(backupDir, name);
    fs.renameSync(partial, dir);
    return { dir, manifest, bytes: folderBytes(dir) };
  } catch (err) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

/** Complete backups under backupDir, newest first. */
export function listBackups(backupDir: string): string[] {
  if (!fs.existsSync(backupDir)) return [];
  return fs
    .readdirSync(backupDir)
    .filter((n) => BACKUP_NAME.test(n) && fs.existsSync(path.join(backupDir, n, MANIFEST_FILE)))
    .sort()
    .reverse()
    .map((n) => path.join(backupDir, n));
}

export interface RestoreResult {
  /** where the data folder's previous contents were moved (undefined when it had none) */
  setAside?: string;
  manifest: BackupManifest;
}

/**
 * Puts a backup back into dataDir. The service must be stopped (the caller checks its port with
 * `portInUse`): a running service keeps its open database file and would not see the restore.
 * Nothing is deleted: what the data folder held is moved to `before-restore-<time>/` first.
 */
export function restoreDataDir(backup: string, dataDir: string, now = new Date()): RestoreResult {
  const manifestFile = path.join(backup, MANIFEST_FILE);
  if (!fs.existsSync(manifestFile)) throw new BackupError(`${backup} is not a complete backup (no ${MANIFEST_FILE}).`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
  const check = inspect(path.join(backup, DB_FILE), true);
  if (JSON.stringify(check.counts) !== JSON.stringify(manifest.counts)) throw new BackupError(`${backup}: the database does not match its manifest.`);

  fs.mkdirSync(dataDir, { recursive: true });
  const moving = [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, ...(manifest.secret ? [SECRET_FILE] : []), ...(manifest.media ? [MEDIA_DIR] : [])].filter((f) =>
    fs.existsSync(path.join(dataDir, f)),
  );
  let setAside: string | undefined;
  if (moving.length > 0) {
    setAside = path.join(dataDir, `before-restore-${now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}`);
    fs.mkdirSync(setAside, { mode: 0o700 });
    for (const f of moving) fs.renameSync(path.join(dataDir, f), path.join(setAside, f));
  }
  // copy beside, then rename: a half-copied database never sits under the live name
  const tmp = path.join(dataDir, `${DB_FILE}.restore-tmp`);
  fs.copyFileSync(path.join(backup, DB_FILE), tmp);
  fs.renameSync(tmp, path.join(dataDir, DB_FILE));
  if (manifest.secret) {
    fs.copyFileSync(path.join(backup, SECRET_FILE), path.join(dataDir, SECRET_FILE));
    fs.chmodSync(path.join(dataDir, SECRET_FILE), 0o600);
  }
  if (manifest.media) fs.cpSync(path.join(backup, MEDIA_DIR), path.join(dataDir, MEDIA_DIR), { recursive: true });
  return { setAside, manifest };
}

/** true when something accepts connections on host:port (the service, most likely). */
export function portInUse(port: number, host: string): Promise<boolean> {
  const target = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: target });
    const done = (inUse: boolean) => {
      socket.destroy();
      resolve(inUse);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export class BackupError extends Error {}

/** schema version, row counts, and (when asked) SQLite's own integrity check of a database file */
function inspect(file: string, integrity = false): { schema_version: number; counts: Record<string, number> } {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    if (integrity) {
      const ok = db.pragma('integrity_check', { simple: true });
      if (ok !== 'ok') throw new BackupError(`${file} fails SQLite's integrity check: ${String(ok)}`);
    }
    const version = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
    const counts: Record<string, number> = {};
    for (const table of COUNTED) counts[table] = (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { schema_version: version.v ?? 0, counts };
  } finally {
    db.close();
  }
}

function uniqueName(dir: string, base: string): string {
  let name = base;
  for (let i = 2; fs.existsSync(path.join(dir, name)) || fs.existsSync(path.join(dir, `${name}.partial`)); i++) name = `${base.slice(0, -1)}-${i}Z`;
  return name;
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    total += e.isDirectory() ? folderBytes(full) : fs.statSync(full).size;
  }
  return total;
}
