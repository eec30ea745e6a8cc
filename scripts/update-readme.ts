// Regenerates the generated parts of README.md (the access matrix) from the live route table:
//   npx tsx scripts/update-readme.ts
import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '../src/app.js';
import { accessMatrixMarkdown } from '../src/meta/access-matrix.js';
import { startTempApp } from '../test/helpers/temp-app.js';

const temp = await startTempApp();
const { built } = temp;
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
await temp.close();
console.log('README.md access matrix updated');
