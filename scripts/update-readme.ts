// Regenerates the generated parts of README.md (the access matrix) from the live route table:
//   npx tsx scripts/update-readme.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { createLogger } from '../src/logger.js';
import { createApp, ROOT_DIR } from '../src/app.js';
import { accessMatrixMarkdown } from '../src/meta/access-matrix.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-readme-'));
const config = loadConfig({ DATA_DIR: dataDir, DEMO_SEED: 'false', SAMPLE_IMPORT: 'false', LOG_LEVEL: 'silent' });
const db = openDatabase(path.join(dataDir, 'app.sqlite'));
const built = await createApp({ config, db, logger: createLogger('silent') });
const readmePath = path.join(ROOT_DIR, 'README.md');
const readme = fs.readFileSync(readmePath, 'utf8');
const start = '<!-- access-matrix:start -->';
const end = '<!-- access-matrix:end -->';
const i = readme.indexOf(start);
const j = readme.indexOf(end);
if (i < 0 || j < i) throw new Error('README.md has no access-matrix markers');
const next = `${readme.slice(0, i + start.length)}\n${accessMatrixMarkdown(built.api.routes)}\n${readme.slice(j)}`;
fs.writeFileSync(`${readmePath}.tmp`, next);
fs.renameSync(`${readmePath}.tmp`, readmePath);
await built.close();
db.close();
fs.rmSync(dataDir, { recursive: true, force: true });
console.log('README.md access matrix updated');
