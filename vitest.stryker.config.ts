// The tests as the mutation run (stryker.config.mjs) runs them: vitest.config.ts, plus the setup that
// hands the active mutant to the programs the tests start. LOOPKIT_MUTATE_TESTS (comma-separated
// globs) narrows the test files, e.g. to test/accuracy.test.ts for scripts/accuracy.mjs.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

const only = process.env.LOOPKIT_MUTATE_TESTS?.split(',').filter((g) => g !== '');

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    setupFiles: ['test/helpers/stryker-env.ts'],
    // the sources are instrumented in place: tests that compare what they build with committed files skip
    env: { ...base.test?.env, LOOPKIT_MUTATION_RUN: '1' },
    // one test runner on a shared machine, the CLI run as a child process of the unminified bundle: slower
    testTimeout: 120_000,
    hookTimeout: 120_000,
    ...(only && only.length > 0 ? { include: only } : {}),
  },
});
