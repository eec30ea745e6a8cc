import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSchema, DEFAULT_ADMIN_PASSWORD, loadConfig, readEnv } from '../../src/config.js';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-config-'));

describe('loadConfig', () => {
  it('applies defaults with no settings and generates a persistent secret', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c.PORT).toBe(3000);
    expect(c.ADMIN_PASSWORD).toBe(DEFAULT_ADMIN_PASSWORD);
    expect(c.adminPasswordIsDefault).toBe(true);
    expect(c.DEMO_SEED).toBe(true);
    expect(c.DOWNLOAD_AUTH_MODE).toBe('auto');
    expect(c.SESSION_SECRET).toHaveLength(64);
    expect(loadConfig({ DATA_DIR: dir }).SESSION_SECRET).toBe(c.SESSION_SECRET);
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
  });

  it('lists every bad setting at once', () => {
    try {
      loadConfig({ DATA_DIR: tmp(), PORT: 'eighty', DEMO_SEED: 'perhaps', OPENAI_BASE_URL: 'not a url', DOWNLOAD_AUTH_MODE: 'magic' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      for (const key of ['PORT', 'DEMO_SEED', 'OPENAI_BASE_URL', 'DOWNLOAD_AUTH_MODE']) expect(problems).toContain(key);
    }
  });

  it('reads .env under the real environment', () => {
    const dir = tmp();
    const file = path.join(dir, '.env');
    fs.writeFileSync(file, 'PORT=4100\nADMIN_PASSWORD=from-file\n');
    const env = readEnv({ PORT: '4200' }, file);
    expect(env.PORT).toBe('4200');
    expect(env.ADMIN_PASSWORD).toBe('from-file');
  });

  it('.env.example lists every setting', () => {
    const example = fs.readFileSync(path.resolve(__dirname, '../../.env.example'), 'utf8');
    const keys = new Set([...example.matchAll(/^([A-Z0-9_]+)=/gm)].map((m) => m[1]));
    expect(Object.keys(configSchema.shape).filter((k) => !keys.has(k))).toEqual([]);
  });
});
