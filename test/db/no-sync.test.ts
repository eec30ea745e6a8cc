import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every file under dir ending in .ts, relative to the repository root. */
function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f));
}

describe('the data layer is used through the async interface', () => {
  it('uses SQLite’s synchronous methods only in the code about the SQLite file itself', () => {
    const allowed = new Set(['src/db/database.ts', 'src/db/migrate.ts', 'src/db/to-postgres.ts']);
    const offenders = tsFiles('src')
      .filter((f) => !allowed.has(f))
      .filter((f) => /\.(all|first|run|transaction)Sync\s*[<(]/.test(fs.readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
