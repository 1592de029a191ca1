/**
 * The walk of a project: every folder below the root that is not ignored (ignore.ts), once. Ignored
 * folders are not entered at all, nor are folders with a `.loopkit.yaml` of their own (projects of
 * their own). Symbolic links to folders are followed only while they resolve inside the project,
 * and after every real folder: a folder reached both at its real place and through links is walked
 * once, at its real place.
 */
import type * as ChildProcess from 'node:child_process';
import { accessSync, constants, readdirSync, statSync, type Dirent } from 'node:fs';
import { delimiter, isAbsolute, join, sep } from 'node:path';
import { CONFIG_FILE } from '../config/errors.js';
import { within } from '../parse/confine.js';
import { exists, insideRoot, isDirectory, readText } from '../parse/fs.js';
import { defaultHides, repositoryTop, type IgnoreMatch, type IgnoreRules } from './ignore.js';
import { nodeModule } from '../util/node-module.js';

/** The files that keep a folder a default ignore names (`build/`, `test/` …): it is a skill (its SKILL.md) or a plugin (its manifest). */
const KEPT_FOLDER_FILES: readonly string[] = ['SKILL.md', '.claude-plugin/plugin.json', '.codex-plugin/plugin.json'];

export interface IgnoredFolder {
  /** project-relative (posix) */
  path: string;
  match: IgnoreMatch;
}

export interface Walk {
  /** the folders that hold a SKILL.md, project-relative (posix, '' = the root), sorted; each real folder once */
  skillDirs: string[];
  /** the real path of each of them */
  realPaths: ReadonlyMap<string, string>;
  /** folders below the root with a `.loopkit.yaml` of their own (not walked), sorted */
  subprojects: string[];
  /** folders not walked because they are ignored, sorted */
  ignored: IgnoredFolder[];
  /** the project root holds a SKILL.md without frontmatter: an index of the collection, not a skill */
  rootIndex: boolean;
  /** folders that could not be read (permissions): any skill in them was not found, sorted */
  unreadable: string[];
}

/** Does a SKILL.md start with a frontmatter block (`---` … `---`), as every skill's does? null: it cannot be read. */
export function hasFrontmatter(abs: string, root: string): boolean | null {
  const r = readText(abs, root);
  if (!('text' in r)) return null;
  return /^\uFEFF?---[ \t]*\r?\n(?:[^]*?\r?\n)?---[ \t]*(?:\r?\n|$)/u.test(r.text);
}

/** The SKILL.md files git tracks below a project root, and every folder that holds one. */
interface Tracked {
  files: Set<string>;
  folders: Set<string>;
}

/**
 * The git program to run for a project: found on the PATH, never in the project (Windows runs a
 * `git.exe` of the working directory before the PATH's when the name is bare, and a relative or
 * empty PATH entry is the working directory everywhere) — so a checked repository cannot make
 * loopkit run a program of its own. Null when there is none (then git is not asked).
 */
export function gitProgram(root: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const names = process.platform === 'win32' ? ['git.exe'] : ['git'];
  const path = env.PATH ?? env.Path ?? '';
  for (const dir of path.split(delimiter)) {
    if (dir === '' || !isAbsolute(dir) || within(dir, root)) continue;
    for (const name of names) {
      const abs = join(dir, name);
      try {
        if (!statSync(abs).isFile()) continue;
        if (process.platform !== 'win32') accessSync(abs, constants.X_OK);
        return abs;
      } catch {
        // not here: the next entry of the PATH
      }
    }
  }
  return null;
}

/**
 * The SKILL.md files git tracks in the work tree at `root` (paths relative to it) and the folders
 * above them; empty when `root` is not in a git work tree or git cannot be run. A tracked file is
 * part of the repository even where a `.gitignore` matches it (git ignores only untracked files): a
 * clone has it.
 */
function trackedSkillFiles(root: string): Tracked {
  const files = new Set<string>();
  const folders = new Set<string>();
  // core.fsmonitor off: a checked repository's own git config must not make loopkit run a command of its choosing
  const args = ['-c', 'core.fsmonitor=false', 'ls-files', '-z', '--cached', '--', '*SKILL.md'];
  // outside a work tree there is nothing tracked: git is not run (an exported snapshot, a plain folder)
  if (repositoryTop(root) === null) return { files, folders };
  const git = gitProgram(root);
  if (git === null) return { files, folders };
  const { spawnSync } = nodeModule<typeof ChildProcess>('node:child_process');
  const r = spawnSync(git, args, { cwd: root, encoding: 'utf8', timeout: 10_000, shell: false, windowsHide: true });
  if (r.status !== 0 || typeof r.stdout !== 'string') return { files, folders };
  for (const path of r.stdout.split('\0')) {
    if (path !== 'SKILL.md' && !path.endsWith('/SKILL.md')) continue;
    files.add(path);
    for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) folders.add(path.slice(0, i));
  }
  return { files, folders };
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Walk the project at `root` with the ignore rules of its root. `starts` are project folders to walk
 * as well when the walk from the root does not reach them (a `skills_dir` named inside an ignored
 * folder): each is walked as a root of its own.
 */
export function walkProject(root: string, rules: IgnoreRules, starts: readonly string[] = []): Walk {
  const found = new Map<string, string>();
  const subprojects: string[] = [];
  const subprojectReals: string[] = [];
  const ignored: IgnoredFolder[] = [];
  /** real paths of the folders walked */
  const visited = new Set<string>();
  const links: { abs: string; path: string; rules: IgnoreRules }[] = [];
  let rootIndex = false;
  const unreadable: string[] = [];
  // asked of git only when a .gitignore hides a folder or a SKILL.md (a run without one spawns nothing)
  let asked: Tracked | undefined;
  const tracked = () => (asked ??= trackedSkillFiles(root));

  const visit = (abs: string, path: string, real: string, here: IgnoreRules, isStart: boolean) => {
    visited.add(real);
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true }).sort(byName);
    } catch {
      unreadable.push(path);
      return;
    }
    if (!isStart && entries.some((e) => e.name === CONFIG_FILE)) {
      subprojects.push(path);
      subprojectReals.push(real);
      return;
    }
    if (entries.some((e) => e.name === '.gitignore' && !e.isDirectory())) {
      const r = readText(join(abs, '.gitignore'), root);
      if ('text' in r) here = here.withGitignore(path, r.text);
    }
    // a SKILL.md that is not a readable file is still a skill's (reported as skill-read-error)
    const skillFile = path === '' ? 'SKILL.md' : `${path}/SKILL.md`;
    const skillMatch = entries.some((e) => e.name === 'SKILL.md') ? here.test(skillFile, false) : undefined;
    if (skillMatch === null || (skillMatch?.source === 'gitignore' && tracked().files.has(skillFile))) {
      if (path === '' && hasFrontmatter(join(abs, 'SKILL.md'), root) === false) rootIndex = true;
      else found.set(path, real);
    }
    for (const e of entries) {
      const link = e.isSymbolicLink();
      if (!e.isDirectory() && !link) continue;
      const childAbs = join(abs, e.name);
      if (link && !isDirectory(childAbs)) continue;
      const childPath = path === '' ? e.name : `${path}/${e.name}`;
      const match = here.test(childPath, true);
      let rules = here;
      // a folder a .gitignore names, holding a SKILL.md git tracks, is walked with the rules as they are
      // (only such SKILL.md files are taken in it)
      if (match !== null && !(match.source === 'gitignore' && tracked().folders.has(childPath))) {
        // a default keeps a folder that is a skill itself (`build/SKILL.md`) or a plugin
        // (`plugins/build/.claude-plugin/plugin.json`: a plugin named build, held-out round 65)
        const kept =
          match.conditional === true
            ? !defaultHides(match.pattern, e.name, (f) => exists(join(childAbs, f)))
            : match.keepsSkill && KEPT_FOLDER_FILES.some((f) => exists(join(childAbs, f)));
        if (!kept) {
          ignored.push({ path: childPath, match });
          continue;
        }
        rules = here.keeping(childPath);
      }
      if (link) links.push({ abs: childAbs, path: childPath, rules });
      else visit(childAbs, childPath, `${real}${sep}${e.name}`, rules, false);
    }
  };

  const realRoot = insideRoot(root, root);
  if (realRoot === null) return { skillDirs: [], realPaths: new Map(), subprojects, ignored, rootIndex, unreadable };
  visit(root, '', realRoot, rules, true);
  for (const start of starts) {
    const real = insideRoot(join(root, start), root);
    if (real !== null && !visited.has(real)) visit(join(root, start), start, real, rules.rootedAt(start), true);
  }
  // then the links, in walk order (links found through links are appended as they are found)
  for (let i = 0; i < links.length; i++) {
    const { abs, path, rules: here } = links[i]!;
    const real = insideRoot(abs, root);
    if (real === null || visited.has(real) || subprojectReals.some((s) => real.startsWith(`${s}${sep}`))) continue;
    visit(abs, path, real, here, false);
  }

  // a folder found at several paths (a link into a folder the walk reached first through another link) is
  // kept at its real place, else at its first path in sort order
  const byReal = new Map<string, string>();
  const realRel = (real: string) =>
    real === realRoot
      ? ''
      : real
          .slice(realRoot.length + 1)
          .split(sep)
          .join('/');
  for (const path of [...found.keys()].sort()) {
    const real = found.get(path)!;
    if (!byReal.has(real) || realRel(real) === path) byReal.set(real, path);
  }
  const skillDirs = [...byReal.values()].sort();
  const realPaths = new Map(skillDirs.map((d) => [d, found.get(d)!]));
  ignored.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { skillDirs, realPaths, subprojects: subprojects.sort(), ignored, rootIndex, unreadable: unreadable.sort() };
}
