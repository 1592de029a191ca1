/**
 * Skill discovery, as the configuration reference describes it: directories directly inside the
 * skills directory that hold a SKILL.md (flat, depth 1) first; then, inside directories that are not
 * skills themselves (category folders), their sub-directories (nested, depth 2). Output is sorted;
 * symlinks are followed only while they stay inside the project; `node_modules` and `.git` are never
 * entered.
 */
import fg from 'fast-glob';
import { join } from 'node:path';
import { insideRoot } from '../parse/fs.js';

/** Project-relative (posix) paths of skill directories. `skillsDir` is project-relative ('' = root). */
export function discoverSkillDirs(root: string, skillsDir: string): string[] {
  const base = join(root, skillsDir);
  const found = fg.sync(['*/SKILL.md', '*/*/SKILL.md'], {
    cwd: base,
    dot: true,
    followSymbolicLinks: true,
    onlyFiles: false, // a SKILL.md that is not a readable file is still a skill (reported as skill-read-error)
    ignore: ['**/node_modules/**', '**/.git/**'],
    suppressErrors: true,
  });
  // a symlinked directory counts only when it resolves inside the project
  const dirs = found.map((f) => f.slice(0, -'/SKILL.md'.length)).filter((d) => insideRoot(join(base, d), root) !== null);
  const flat = new Set(dirs.filter((d) => !d.includes('/')));
  // nested skills only inside folders that are not skills themselves (a skill's own sub-folders are not skills)
  const nested = dirs.filter((d) => d.includes('/') && !flat.has(d.split('/')[0]!));
  const prefix = skillsDir.replace(/\/+$/, '');
  return [...flat, ...nested].map((d) => (prefix === '' ? d : `${prefix}/${d}`)).sort();
}
