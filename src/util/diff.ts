/** A unified diff of two texts, as `diff -u` and `git diff` print it (the `diff` package, jsdiff). */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

/**
 * `--- a/<path>` / `+++ b/<path>` (as git prints them; an absolute path is printed as it is) and the
 * hunks with `context` lines of context; '' when the texts are equal.
 */
export function unifiedDiff(before: string, after: string, path: string, context = 3): string {
  if (before === after) return '';
  const absolute = path.startsWith('/') || /^[A-Za-z]:[\\/]/u.test(path);
  const [a, b] = absolute ? [path, path] : [`a/${path}`, `b/${path}`];
  return createTwoFilesPatch(a, b, before, after, undefined, undefined, { context, headerOptions: FILE_HEADERS_ONLY });
}
