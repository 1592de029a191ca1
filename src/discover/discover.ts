/**
 * Skill discovery. The skills directories come from `skills_dir` (a path, a glob, or a list of
 * them); without a `skills_dir` setting, every common layout that exists is used: `skills/`,
 * `.claude/skills/`, `.agents/skills/`, `.github/skills/` and plugin marketplaces
 * (`plugins/<plugin>/skills/`); with none of them, the project root itself, then every folder that
 * holds skills deeper down (engine/project.ts). Inside each, as the configuration reference describes: directories
 * that hold a SKILL.md (flat, depth 1) first; then, inside directories that are not skills
 * themselves (category folders), their sub-directories (nested, depth 2). Output is sorted;
 * symlinks are followed only while they stay inside the project, and a skill reached through
 * several of them is one skill; folders whose name starts with `_` (`_template`), `node_modules` and
 * `.git` are never skills.
 */
import fg from 'fast-glob';
import { isAbsolute, join, relative, sep } from 'node:path';
import { insideRoot, isDirectory } from '../parse/fs.js';

/** Where skills live when no `skills_dir` says otherwise, in this order. */
export const DEFAULT_SKILLS_DIRS: readonly string[] = ['skills', '.claude/skills', '.agents/skills', '.github/skills', 'plugins/*/skills'];

const IGNORE = ['**/node_modules/**', '**/.git/**'];

/** A folder whose name starts with `_` (`_template`, `_shared`) is a template or a shared part, never a skill. */
const underscored = (path: string) => path.split('/').some((part) => part.startsWith('_'));

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

/** Does a path setting use glob syntax? */
export function isGlob(pattern: string): boolean {
  return fg.isDynamicPattern(pattern);
}

export interface SkillsDirs {
  /** project-relative (posix) skills directories that exist, in setting order, each once ('' = the root) */
  dirs: string[];
  /** settings that name a directory (not a glob) that does not exist */
  missing: string[];
}

/** The skills directories a `skills_dir` setting (paths and globs) names. */
export function resolveSkillsDirs(root: string, patterns: readonly string[]): SkillsDirs {
  const dirs: string[] = [];
  const missing: string[] = [];
  const add = (d: string) => {
    // `./skills` is `skills` and `.` the root; `.claude/skills` keeps its dot
    const rel = toPosix(d)
      .replace(/\/+$/u, '')
      .replace(/^(?:\.\/)+/u, '')
      .replace(/^\.$/u, '');
    if (!dirs.includes(rel)) dirs.push(rel);
  };
  for (const pattern of patterns) {
    if (isGlob(pattern)) {
      const found = fg.sync(pattern.replace(/\/+$/u, ''), {
        cwd: root,
        onlyDirectories: true,
        dot: true,
        followSymbolicLinks: true,
        ignore: IGNORE,
        suppressErrors: true,
      });
      for (const d of found.sort()) if (insideRoot(join(root, d), root) !== null) add(d);
      continue;
    }
    const abs = isAbsolute(pattern) ? pattern : join(root, pattern);
    if (isDirectory(abs)) add(relative(root, abs));
    else missing.push(pattern);
  }
  return { dirs, missing };
}

/** Project-relative (posix) paths of skill directories. `skillsDir` is project-relative ('' = root). */
export function discoverSkillDirs(root: string, skillsDir: string): string[] {
  const dirs = skillDirsMatching(root, join(root, skillsDir), ['*/SKILL.md', '*/*/SKILL.md'], { followSymbolicLinks: true });
  const flat = new Set(dirs.filter((d) => !d.includes('/')));
  // nested skills only inside folders that are not skills themselves (a skill's own sub-folders are not skills)
  const nested = dirs.filter((d) => d.includes('/') && !flat.has(d.split('/')[0]!));
  const prefix = skillsDir.replace(/\/+$/, '');
  return [...flat, ...nested].map((d) => (prefix === '' ? d : `${prefix}/${d}`)).sort();
}

/**
 * Every skill directory under several skills directories, each once, sorted. A skill reached
 * through several paths — a repository that links `.agents/skills -> ../skills`, or a plugin folder
 * that links back to the repository — is one skill: it is checked once, at the path that is its
 * real place (else at the first path in sort order).
 */
export function discoverAll(root: string, skillsDirs: readonly string[]): string[] {
  const all = new Set<string>();
  for (const d of skillsDirs) for (const s of discoverSkillDirs(root, d)) all.add(s);
  const realRoot = insideRoot(root, root);
  const byReal = new Map<string, string>();
  for (const s of [...all].sort()) {
    const real = insideRoot(join(root, s), root) ?? s;
    const kept = byReal.get(real);
    const isReal = realRoot !== null && toPosix(relative(realRoot, real)) === s;
    if (kept === undefined || isReal) byReal.set(real, s);
  }
  return [...byReal.values()].sort();
}

/**
 * The folders that hold skills, for repositories that keep them in deeper layouts than the common
 * ones (`<product>/<plugin>/skills/<skill>/`, `agents/<agent>/<skill>/`): the parent of each of these
 * skill directories (skillDirsAnywhere) that is not inside another (a skill's own sub-folders are
 * not skills). Sorted.
 */
export function foldersOf(skills: readonly string[]): string[] {
  const outer = skills.filter((d) => !skills.some((o) => d.startsWith(`${o}/`)));
  return [...new Set(outer.map((d) => (d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '')))].sort();
}

/**
 * Every directory with a SKILL.md at most `depth` levels down (skills inside other skills
 * included), hidden folders included; never `_` folders, `node_modules` or `.git`, never through
 * symlinks. Sorted, project-relative (posix).
 */
export function skillDirsAnywhere(root: string, depth: number): string[] {
  return skillDirsMatching(root, root, ['**/SKILL.md'], { followSymbolicLinks: false, deep: depth + 1 }).sort();
}

/**
 * The directories below `base` whose SKILL.md matches one of `patterns`, relative to `base`: hidden
 * folders included (other agents' `.opencode/skills/`), `_` folders, `node_modules` and `.git` never,
 * and a symlinked directory only when it resolves inside the project.
 */
function skillDirsMatching(
  root: string,
  base: string,
  patterns: string[],
  options: { followSymbolicLinks: boolean; deep?: number },
): string[] {
  const found = fg.sync(patterns, {
    cwd: base,
    dot: true,
    onlyFiles: false, // a SKILL.md that is not a readable file is still a skill (reported as skill-read-error)
    ignore: IGNORE,
    suppressErrors: true,
    ...options,
  });
  return found
    .map((f) => f.slice(0, -'/SKILL.md'.length))
    .filter((d) => d !== '' && !underscored(d) && insideRoot(join(base, d), root) !== null);
}
