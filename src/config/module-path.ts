/**
 * A module or file a `.loopkit.yaml` names (`plugins:`, a shareable config in `extends:`): a path,
 * relative to the project root, or a package resolved from the project root as Node's
 * `require.resolve` resolves it.
 */
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { CONFIG_FILE } from './errors.js';

/** Is the specifier a path (relative or absolute) rather than a package name? */
export function isPathSpecifier(specifier: string): boolean {
  return (
    specifier.startsWith('./') ||
    specifier.startsWith('../') ||
    specifier === '.' ||
    isAbsolute(specifier) ||
    /^[a-z]:[\\/]/iu.test(specifier)
  );
}

/** The file a package name resolves to from the project root, or null when no such package is installed. */
export function resolvePackage(root: string, specifier: string): string | null {
  try {
    return createRequire(join(root, CONFIG_FILE)).resolve(specifier);
  } catch {
    return null;
  }
}
