/**
 * Skill discovery, as the configuration reference describes it: directories directly inside the
 * skills directory that hold a SKILL.md (flat, depth 1) first; then, for directories that are not
 * skills themselves (category folders), their sub-directories (nested, depth 2). Output is sorted;
 * symlinks are followed only while they stay inside the project; `node_modules` and `.git` are never
 * entered.
 */
import { join } from 'node:path';
import { exists, listDir } from '../parse/fs.js';

const NEVER_ENTER = new Set(['node_modules', '.git']);

/** Project-relative (posix) paths of skill directories. `skillsDir` is project-relative ('' = root). */
export function discoverSkillDirs(root: string, skillsDir: string): string[] {
  const base = join(root, skillsDir);
  const rel = (...parts: string[]) => [skillsDir.replace(/\/+$/, ''), ...parts].filter((p) => p !== '').join('/');
  const flat: string[] = [];
  const categories: string[] = [];
  for (const e of listDir(base, root)) {
    if (e.kind !== 'dir' || NEVER_ENTER.has(e.name)) continue;
    if (exists(join(base, e.name, 'SKILL.md'))) flat.push(e.name);
    else categories.push(e.name);
  }
  const nested: string[] = [];
  for (const c of categories) {
    for (const e of listDir(join(base, c), root)) {
      if (e.kind !== 'dir' || NEVER_ENTER.has(e.name)) continue;
      if (!exists(join(base, c, e.name, 'SKILL.md'))) continue;
      nested.push(`${c}/${e.name}`);
    }
  }
  return [...flat.map((n) => rel(n)), ...nested.map((n) => rel(n))].sort();
}
