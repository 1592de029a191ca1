/** The package version (kept in step with package.json by test/meta.test.ts). */
export const VERSION = '0.4.0';
