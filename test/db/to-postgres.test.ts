import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Secrets } from '../../src/auth/secrets.js';
import { Db } from '../../src/db/database.js';
import { migratePostgres } from '../../src/db/migrate.js';
import { PgDatabase } from '../../src/db/postgres.js';
import { MoveRefused, moveToPostgres } from '../../src/db/to-postgres.js';
import { finalQuestions } from '../../src/questions/final.service.js';
import { createFamily, loginAdmin, loginChild, startTestApp, type TestFamily } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/pg-cluster.js';

const pgUrl = inject('pgUrl');
const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const CLI = path.join(ROOT, 'src', 'db', 'to-postgres.cli.ts');

describe.skipIf(!pgUrl)('npm run db:to-postgres', () => {
  let dir: string;
  let family: TestFamily;
  let target: { url: string; drop(): Promise<void> };
  let sqliteCounts: Record<string, number>;
  const savedEngine = process.env.TEST_ENGINE;

  // a used school on SQLite: the demo family and code class, the sample video with its
  // questions, one more family with codes, and a saved attempt with its answers
  beforeAll(async () => {
    process.env.TEST_ENGINE = 'sqlite';
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-move-'));
    const t = await startTestApp({ DEMO_SEED: 'true', SAMPLE_IMPORT: 'true' }, dir);
    try {
      family = await createFamily(t, { interaction_mode: 'strict' });
      const sample = await t.db.first<{ id: string }>('SELECT id FROM videos WHERE is_sample = 1');
      const admin = await loginAdmin(t.agent());
      const assigned = await admin.post('/api/admin/videos/assignments').send({ video_id: sample!.id, expert_id: family.expert.expert_id });
      expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
      const child = await loginChild(t.agent(), family);
      const saved = await child.post('/api/save-quiz-score').send({
        child_id: family.child.child_id,
        video_id: sample!.id,
        total_retries: 0,
        watch_minutes: 2.25,
        interaction_mode: 'strict',
        details: [
          { question: 'Who?', question_type: 'character', expected: 'the cat', user: 'a cat', status: 'correct', similarity: 0.9, retries: 0 },
          { question: 'Where?', question_type: 'setting', expected: 'the barn', user: 'a house', status: 'wrong', similarity: 0.1, retries: 0 },
        ],
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    } finally {
      await t.close(); // keeps the supplied data dir
    }
    const lite = new Db(path.join(dir, 'app.sqlite'));
    const tables = await lite.all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'",
    );
    sqliteCounts = {};
    for (const { name } of tables) sqliteCounts[name] = (await lite.first<{ n: number }>(`SELECT COUNT(*) AS n FROM ${name}`))!.n;
    await lite.close();
    target = await createTestDatabase(pgUrl, 'move');
  });
  afterAll(async () => {
    if (savedEngine === undefined) delete process.env.TEST_ENGINE;
    else process.env.TEST_ENGINE = savedEngine;
    await target?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies every row in one go, verified per table, with the secret, so the same codes match', async () => {
    for (const table of ['experts', 'parents', 'children', 'access_codes', 'videos', 'review_questions', 'quiz_attempts', 'quiz_answers', 'code_problems']) {
      expect(sqliteCounts[table], table).toBeGreaterThan(0);
    }
    const secret = fs.readFileSync(path.join(dir, 'secret.key'), 'utf8').trim();
    const lines: string[] = [];
    const result = await moveToPostgres({
      sqliteFile: path.join(dir, 'app.sqlite'),
      databaseUrl: target.url,
      sessionSecret: secret,
      log: (l) => lines.push(l),
    });
    expect(result.counts).toEqual(sqliteCounts);
    expect(result.secretMoved).toBe(true);
    expect(lines.find((l) => l.startsWith('quiz_answers'))).toMatch(/quiz_answers\s+2 rows/);

    const pg = new PgDatabase({ url: target.url });
    try {
      for (const [table, n] of Object.entries(sqliteCounts)) {
        if (table === 'app_secrets') continue;
        expect(await pg.first(`SELECT COUNT(*) AS n FROM ${table}`), table).toEqual({ n });
      }
      expect(await pg.all('SELECT name, value FROM app_secrets')).toEqual([{ name: 'session', value: secret }]);
      // the family code's keyed hash, as a login computes it, finds the family
      const secrets = new Secrets(secret);
      const code = await pg.first<{ owner_kind: string; owner_id: string; code_enc: string }>(
        'SELECT owner_kind, owner_id, code_enc FROM access_codes WHERE code_hash = ?',
        [secrets.hash(family.parentCode)],
      );
      expect(code).toMatchObject({ owner_kind: 'parent', owner_id: family.parentId });
      expect(secrets.decrypt(code!.code_enc)).toBe(family.parentCode);
      const attempt = await pg.first('SELECT child_id, watch_minutes, question_count, correct_count FROM quiz_attempts WHERE child_id = ?', [
        family.child.child_id,
      ]);
      expect(attempt).toEqual({ child_id: family.child.child_id, watch_minutes: 2.25, question_count: 2, correct_count: 1 });
      // children are served the same questions; the revision only moved on (migration 012's
      // triggers fire for the copied rows), so no instance can mistake it for an older one
      const lite = new Db(path.join(dir, 'app.sqlite'));
      try {
        const sample = (await lite.first<{ id: string; r: number }>('SELECT id, questions_rev AS r FROM videos WHERE is_sample = 1'))!;
        const served = await finalQuestions(lite, sample.id, 'pig');
        expect(served.length).toBeGreaterThan(0);
        expect(await finalQuestions(pg, sample.id, 'pig')).toEqual(served);
        expect((await pg.first<{ r: number }>('SELECT questions_rev AS r FROM videos WHERE id = ?', [sample.id]))!.r).toBeGreaterThan(sample.r);
      } finally {
        await lite.close();
      }
      // identities continue after the copied ids
      const top = (await pg.first<{ m: number }>('SELECT MAX(id) AS m FROM quiz_attempts'))!.m;
      const next = await pg.first<{ id: number }>("INSERT INTO quiz_attempts (child_id, video_id, interaction_mode) VALUES (?, 'v', 'strict') RETURNING id", [
        family.child.child_id,
      ]);
      expect(next!.id).toBe(top + 1);
      await pg.run('DELETE FROM quiz_attempts WHERE id = ?', [next!.id]);
    } finally {
      await pg.close();
    }
  });

  it('refuses a second run (the target has rows) with a clear message and exit code 1, changing nothing', async () => {
    const secret = fs.readFileSync(path.join(dir, 'secret.key'), 'utf8').trim();
    await expect(moveToPostgres({ sqliteFile: path.join(dir, 'app.sqlite'), databaseUrl: target.url, sessionSecret: secret })).rejects.toThrow(MoveRefused);
    const cli = spawnSync(TSX, [CLI], {
      cwd: dir, // no .env there
      env: { PATH: process.env.PATH, DATA_DIR: dir, DATABASE_URL: target.url, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(cli.status, cli.stderr).toBe(1);
    expect(cli.stderr).toMatch(/The PostgreSQL database is not empty \(rows in .*experts/);
    const pg = new PgDatabase({ url: target.url });
    try {
      expect(await pg.first('SELECT COUNT(*) AS n FROM experts')).toEqual({ n: sqliteCounts.experts });
    } finally {
      await pg.close();
    }
  });

  it('refuses a target at other migration versions, and a school with codes but no secret', async () => {
    const other = await createTestDatabase(pgUrl, 'moveother');
    const pg = new PgDatabase({ url: other.url });
    try {
      await migratePostgres(pg);
      await pg.run("INSERT INTO schema_migrations (version, name) VALUES (999, '999-future.sql')");
      const sqliteFile = path.join(dir, 'app.sqlite');
      await expect(moveToPostgres({ sqliteFile, databaseUrl: other.url, sessionSecret: 'x'.repeat(64) })).rejects.toThrow(/Migration versions differ/);
      await pg.run('DELETE FROM schema_migrations WHERE version = 999');
      await expect(moveToPostgres({ sqliteFile, databaseUrl: other.url, sessionSecret: null })).rejects.toThrow(/server secret was not found/);
      expect(await pg.first('SELECT COUNT(*) AS n FROM experts')).toEqual({ n: 0 });
      const cli = spawnSync(TSX, [CLI], {
        cwd: dir,
        env: { PATH: process.env.PATH, DATA_DIR: dir },
        encoding: 'utf8',
      });
      expect(cli.status).toBe(1);
      expect(cli.stderr).toMatch(/Set DATABASE_URL/);
    } finally {
      await pg.close();
      await other.drop();
    }
  });
});
