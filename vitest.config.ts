import { defineConfig } from 'vitest/config';
import { COMPILE_CACHE } from './functions/cli/compile-cache.ts';
import ShopStartsFirst from './tests/support/sequencer.ts';

// Every server and command the tests start reuses what Node compiled before (see compile-cache.ts).
process.env.NODE_COMPILE_CACHE ??= COMPILE_CACHE;

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'functions/**/*.test.ts',
      'tests/integration/**/*.test.ts',
      // Long cases only `npm run test:sweep` runs (CI runs it after npm test).
      ...(process.env.TEST_SWEEP ? ['tests/sweep/**/*.test.ts'] : []),
    ],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/console-guard.ts', 'tests/support/database-per-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Files share nothing (each clones its own database and storage folder), and most of their time is
    // spent waiting on servers and PostgreSQL: three at once on two cores (vitest's default is one).
    maxWorkers: 3,
    sequence: { sequencer: ShopStartsFirst },
    // A developer's .env never reaches the tests.
    env: { ENV_FILE: '' },
  },
});
