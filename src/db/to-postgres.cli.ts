/**
 * `npm run db:to-postgres`: copies DATA_DIR's SQLite database into the empty PostgreSQL database
 * at DATABASE_URL (src/db/to-postgres.ts). Stop the service first; then start the instances with
 * DATABASE_URL set. Settings come from the environment and .env like the service's own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, readEnv } from '../config.js';
import { MoveRefused, moveToPostgres } from './to-postgres.js';
import { createMediaStore, uploadMediaFolder } from '../storage/index.js';

async function main(): Promise<number> {
  const env = readEnv(process.env);
  const config = loadConfig(env);
  if (!config.DATABASE_URL) {
    throw new MoveRefused('Set DATABASE_URL to the empty PostgreSQL database to move into (postgres://user:password@host:5432/dbname).');
  }
  // the secret the SQLite installation used: SESSION_SECRET (then the PostgreSQL instances must get it too) or its file
  const secretFile = path.join(config.dataDir, 'secret.key');
  const fileSecret = fs.existsSync(secretFile) ? fs.readFileSync(secretFile, 'utf8').trim() : '';
  const sessionSecret = config.sessionSecretFrom === 'env' ? 'env' : fileSecret.length >= 32 ? fileSecret : null;
  if (config.S3_BUCKET) {
    // Media first: uploads are idempotent, so a failed one can simply be run again, while the
    // database moves exactly once (a second run is refused).
    const store = createMediaStore(config);
    let files = 0;
    let bytes = 0;
    process.stderr.write(`Uploading ${path.join(config.dataDir, 'videos')} to the bucket ${config.S3_BUCKET} ...\n`);
    try {
      await uploadMediaFolder(store, config.dataDir, {
        onFile: (_key, size) => {
          files += 1;
          bytes += size;
        },
      });
    } finally {
      store.close();
    }
    process.stderr.write(`Uploaded ${files} media files (${(bytes / 1e6).toFixed(1)} MB), sizes verified.\n`);
  }
  const sqliteFile = path.join(config.dataDir, 'app.sqlite');
  process.stderr.write(`Moving ${sqliteFile} into ${redact(config.DATABASE_URL)} ...\n`);
  const result = await moveToPostgres({
    sqliteFile,
    databaseUrl: config.DATABASE_URL,
    sessionSecret,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
  process.stderr.write(
    `Done: ${total} rows in ${Object.keys(result.counts).length} tables, counts verified, schema version ${result.version}. ` +
      (result.secretMoved
        ? 'The server secret moved into the database, so every code logs in as before.\n'
        : sessionSecret === 'env'
          ? 'SESSION_SECRET is set: give the PostgreSQL instances the same value.\n'
          : 'There were no access codes and no server secret: the instances will generate one.\n') +
      (config.S3_BUCKET ? 'Start the instances with DATABASE_URL and the S3_* settings set.\n' : 'Start the instances with DATABASE_URL set; keep DATA_DIR (media) until it is moved or copied.\n'),
  );
  return 0;
}

/** The URL without its password, for the console. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const known = err instanceof MoveRefused || err instanceof ConfigError;
    process.stderr.write(`${known ? (err as Error).message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
