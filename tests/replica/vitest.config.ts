import { defineConfig } from 'vitest/config';

/** The read replicas' tests, run by scripts/replica-test.mjs against the standby it makes. */
export default defineConfig({
  test: {
    include: ['tests/replica/**/*.test.ts'],
    setupFiles: ['tests/setup/fail-on-console-error.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
