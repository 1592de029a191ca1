/** Ignore patterns as `ignores:` and `--ignore-pattern` give them (no dependencies: the command line checks them too). */

/** What is wrong with a pattern of `ignores:` or `--ignore-pattern`, or null when nothing is. */
export function patternProblem(p: string): string | null {
  const body = p.startsWith('!') ? p.slice(1) : p;
  if (body.trim() === '') return 'must not be empty';
  if (/^[a-zA-Z]:[\\/]/u.test(body)) return `'${p}' is an absolute path; write a pattern relative to the project root`;
  if (body.split('/').includes('..')) return `'${p}' reaches outside the project ('..'); write a pattern relative to the project root`;
  if (p.startsWith('#')) return `'${p}' starts with '#', which makes it a comment; write '\\#' for a name that starts with '#'`;
  return null;
}
