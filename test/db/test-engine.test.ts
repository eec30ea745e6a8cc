import { describe, expect, inject, it } from 'vitest';
import { testEngine } from '../helpers/temp-app.js';

const pgUrl = inject('pgUrl');

describe('the test engine switch', () => {
  it('reads TEST_ENGINE (sqlite unless postgres) and refuses anything else', () => {
    const saved = process.env.TEST_ENGINE;
    try {
      delete process.env.TEST_ENGINE;
      expect(testEngine()).toBe('sqlite');
      process.env.TEST_ENGINE = 'postgres';
      expect(testEngine()).toBe('postgres');
      process.env.TEST_ENGINE = 'mysql';
      expect(() => testEngine()).toThrow(/TEST_ENGINE must be sqlite or postgres/);
    } finally {
      if (saved === undefined) delete process.env.TEST_ENGINE;
      else process.env.TEST_ENGINE = saved;
    }
  });

  // startTempApp cannot import vitest (benches use it), so it finds the cluster through the environment
  it.skipIf(!pgUrl)('passes the cluster URL from the global setup to the test workers', () => {
    expect(process.env.TEST_PG_URL).toBe(pgUrl);
  });
});
