import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // one throwaway PostgreSQL cluster per run, for the second engine's tests (issue #18)
    globalSetup: ['test/helpers/pg-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Browser and media tests start real processes; two cores only, so keep files parallel but bounded.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
