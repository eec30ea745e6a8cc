/**
 * `npm run backup [-- --no-media]`: a dated, consistent copy of DATA_DIR's database, server
 * secret and (unless --no-media) media folder under BACKUP_DIR; safe while the service runs.
 * `npm run restore -- <backup folder | latest>`: puts one back into DATA_DIR. The service must be
 * stopped: this refuses while something answers on its PORT. The data folder's previous contents
 * are moved aside (before-restore-<time>/), never deleted.
 * Settings come from the environment and .env like the service's own (src/config.ts).
 */
import path from 'node:path';
import { ConfigError, loadConfig, readEnv } from '../config.js';
import { BackupError, backupDataDir, listBackups, portInUse, restoreDataDir } from './backup.service.js';
import { createMediaStore } from '../storage/index.js';
import { VIDEOS_PREFIX } from '../storage/keys.js';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig(readEnv(process.env));
  if (command === 'backup') {
    // with S3_BUCKET the media are in the bucket: not copied (the manifest and this line say why)
    const mediaBucket = config.S3_BUCKET ? createMediaStore(config).location(VIDEOS_PREFIX) : undefined;
    const r = await backupDataDir(config.dataDir, config.backupDir, { media: !rest.includes('--no-media'), mediaBucket });
    const counts = Object.entries(r.manifest.counts).map(([k, v]) => `${k} ${v}`).join(', ');
    process.stderr.write(`Backup written to ${r.dir} (${(r.bytes / 1024 / 1024).toFixed(1)} MB${r.manifest.media ? ', media included' : ', no media'}): ${counts}\n`);
    if (r.manifest.media_note) process.stderr.write(`Note: ${r.manifest.media_note}.\n`);
    return 0;
  }
  if (command === 'restore') {
    const which = rest.find((a) => !a.startsWith('--'));
    if (!which) {
      const all = listBackups(config.backupDir);
      process.stderr.write(`Name the backup to restore: npm run restore -- <folder | latest>\nBackups in ${config.backupDir}:\n${all.map((d) => `  ${d}`).join('\n') || '  (none)'}\n`);
      return 2;
    }
    const backup = which === 'latest' ? listBackups(config.backupDir)[0] : path.resolve(which);
    if (!backup) throw new BackupError(`No backups in ${config.backupDir}.`);
    if (await portInUse(config.PORT, config.HOST)) {
      throw new BackupError(`Something answers on port ${config.PORT}: stop the service before restoring (a running service keeps the old database open).`);
    }
    const r = restoreDataDir(backup, config.dataDir);
    process.stderr.write(
      `Restored ${backup} into ${config.dataDir} (backup of ${r.manifest.created_at}).\n` +
        (r.setAside ? `The data folder's previous database, secret and media were moved to ${r.setAside}.\n` : '') +
        'Start the service again with npm start.\n',
    );
    return 0;
  }
  process.stderr.write('Usage: npm run backup [-- --no-media]   |   npm run restore -- <backup folder | latest>\n');
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const known = err instanceof BackupError || err instanceof ConfigError;
    process.stderr.write(`${known ? (err as Error).message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
