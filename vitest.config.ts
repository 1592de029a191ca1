import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30000,
    pool: 'threads',
    // the cache (on by default) of every run in a temporary directory, never the user's
    globalSetup: ['test/helpers/cache-home.ts'],
  },
});
