import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFamily, loginChild, loginExpert, startTestApp, TEST_ADMIN_PASSWORD } from '../helpers/app.js';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

describe('secrets at rest', () => {
  it('no access code or password appears in plain text anywhere in DATA_DIR (database, WAL, sessions)', async () => {
    const t = await startTestApp({ DEMO_SEED: 'true' });
    try {
      const fam = await createFamily(t);
      await loginExpert(t.agent(), fam.expert.code);
      await loginChild(t.agent(), fam);
      const agent = await loginExpert(t.agent(), fam.expert.code);
      await agent.put('/api/expert/my-login-code').send({ login_code: 'changed-code-9' });
      const secrets = [fam.expert.code, fam.parentCode, 'changed-code-9', TEST_ADMIN_PASSWORD];
      const files = filesUnder(t.dataDir);
      expect(files.some((f) => f.endsWith('app.sqlite'))).toBe(true);
      for (const file of files) {
        const bytes = fs.readFileSync(file);
        for (const s of secrets) expect(bytes.includes(Buffer.from(s)), `${s} found in ${file}`).toBe(false);
      }
      // the demo seed's codes are hashed too (only printed once at start)
      const rows = await t.db.all<{ code_hash: string; code_enc: string }>('SELECT code_hash, code_enc FROM access_codes');
      expect(rows.length).toBeGreaterThanOrEqual(4);
      for (const r of rows) expect(r.code_hash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await t.close();
    }
  });
});
