import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30000,
    // forks: the command line runs in the test's own process (test/helpers/cli.ts), which changes directory
    pool: 'forks',
    // both cores of a small machine: most tests wait on a child process or a server
    maxWorkers: Math.max(2, availableParallelism()),
    // the cache (on by default) of every run in a temporary directory, never the user's
    globalSetup: ['test/helpers/cache-home.ts'],
    // every rule sees the model through proxies that fail it on a read it did not declare (engine/reads.ts)
    env: { LOOPKIT_CHECK_READS: '1' },
  },
});
