import type { TestProject } from 'vitest/node';
import { postgresAvailable, startPgCluster } from './pg-cluster.js';

/**
 * One throwaway PostgreSQL cluster for the whole test run (about 2.5 s to start), shared with
 * the test files through `inject('pgUrl')`; each file makes its own database on it
 * (`createTestDatabase`). Empty when PostgreSQL is not installed, or with TEST_POSTGRES=off;
 * in CI (CI=true) a missing PostgreSQL is an error, so the second engine is never skipped there.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TEST_POSTGRES === 'off' || (!postgresAvailable() && process.env.CI !== 'true')) {
    project.provide('pgUrl', '');
    return undefined;
  }
  const cluster = await startPgCluster();
  project.provide('pgUrl', cluster.url);
  // for startTempApp (test/helpers/temp-app.ts), which must not import vitest: workers start
  // after global setup and inherit the environment (a test in test/db checks it)
  process.env.TEST_PG_URL = cluster.url;
  return async () => {
    delete process.env.TEST_PG_URL;
    await cluster.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** superuser URL of the run's PostgreSQL cluster, or '' when PostgreSQL tests are off */
    pgUrl: string;
  }
}
