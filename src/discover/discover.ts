/**
 * Skill discovery: which folders of a project are its skills. There is no list of layouts: the
 * project is walked (walk.ts) — every folder that is not ignored (ignore.ts: `.gitignore`, the
 * defaults, `ignores:`, `--ignore-pattern`) — and every SKILL.md found is a skill's, wherever it sits:
 *
 * - everywhere (no `.loopkit.yaml`, or the agent-skills preset without a `skills_dir`): every folder
 *   with a SKILL.md is a skill, except one inside another skill's folder (part of that skill);
 * - with skills directories (`skills_dir`, or the loop-language preset's default `skills/`): the
 *   folders with a SKILL.md inside them are the skills, and every other SKILL.md found is a skill
 *   that is not checked — reported (skill-outside-skills-dir), never silently left out.
 *
 * A SKILL.md at the project root with frontmatter is the root skill (its folder is the root, ''): a
 * repository that is one skill, or a router skill at the top of its collection. It is a skill
 * wherever skills are found everywhere, and where `skills_dir` names the root itself; elsewhere it is
 * reported like any skill outside the skills directories. The skills below it stay skills of their
 * own: only a SKILL.md in its own resource folders (ROOT_SKILL_FOLDERS) is part of it. A root
 * SKILL.md without frontmatter is an index of the collection, named in a note; so is one below the
 * root, above skills of its own (Discovery.indexes), where skills are found everywhere. Folders with a
 * `.loopkit.yaml` of their own are other projects.
 */
import type FastGlob from 'fast-glob';
import { isAbsolute, join, relative, sep } from 'node:path';
import { insideRoot, isDirectory } from '../parse/fs.js';
import type { UncheckedReason, UncheckedSkill } from '../model/types.js';
import { isAgentFolder, isSkillsFolder, skillsFoldersOf } from '../model/skill-dir.js';
import type { IgnoredFolder, Walk } from './walk.js';

export type { UncheckedReason, UncheckedSkill };

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

/** A setting with none of these characters is a plain path, no glob (most are: `skills/`). */
const mayBeGlob = (pattern: string) => /[*?[\]{}()!+@]/u.test(pattern);

/** fast-glob, once loaded (it and the streams it brings cost a start-up that most projects need not pay). */
let fg: typeof FastGlob | undefined;

/** Load fast-glob when a setting may use glob syntax: before resolveSkillsDirs or isGlob on such settings. */
export async function globsFor(patterns: readonly string[]): Promise<void> {
  if (fg === undefined && patterns.some(mayBeGlob)) fg = (await import('fast-glob')).default;
}

/** Does a path setting use glob syntax? */
export function isGlob(pattern: string): boolean {
  if (!mayBeGlob(pattern)) return false;
  if (fg === undefined) throw new Error('isGlob: call globsFor first');
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
      const found = fg!.sync(pattern.replace(/\/+$/u, ''), {
        cwd: root,
        onlyDirectories: true,
        dot: true,
        followSymbolicLinks: true,
        ignore: ['**/node_modules/**', '**/.git/**'],
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

export interface Discovery {
  /** the skill folders to check, project-relative, sorted */
  skills: string[];
  /**
   * folders whose SKILL.md has no frontmatter and is named as another skill of the project that has
   * one (`skill-flavors/web/<skill>/SKILL.md` beside `skills/<skill>/SKILL.md`): a piece of that
   * skill (an override, a variant merged at build time), not a skill of its own; sorted
   */
  fragments: string[];
  /**
   * folders below the root whose SKILL.md has no frontmatter and that hold skills below them (a
   * plugin's setup guide above its `skills/`): an index of those skills, not a skill; only where
   * skills are found everywhere; sorted
   */
  indexes: string[];
  /**
   * folders below the root, outside every `skills/` folder, whose SKILL.md has no frontmatter and
   * that are a code package's folder (its `go.mod`, `package.json` … beside it): a document of that
   * package (a Go package named `skill` whose SKILL.md is its template), not a skill; only where
   * skills are found everywhere; sorted
   */
  packageDocs: string[];
  /** folders with a SKILL.md inside a checked skill's folder (part of that skill, not skills of their own), sorted */
  nested: string[];
  /** SKILL.md files found that are not checked, sorted by folder */
  unchecked: UncheckedSkill[];
  /** folders below the root with a `.loopkit.yaml` of their own: other projects, sorted */
  subprojects: string[];
  /** folders not walked because they are ignored, sorted */
  ignored: IgnoredFolder[];
  /** the project root holds a SKILL.md without frontmatter: an index of the collection, not a skill */
  rootIndex: boolean;
  /** folders that could not be read: any skill in them was not found, sorted */
  unreadable: string[];
}

/** Is the real path `path` strictly inside the real folder `dir`? */
const inside = (path: string, dir: string) => path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);

/**
 * The root skill's own folders, as the Agent Skills specification names a skill's files: a SKILL.md
 * in them is a template or an example the root skill ships, part of it.
 */
export const ROOT_SKILL_FOLDERS: readonly string[] = ['assets', 'references', 'scripts'];

/** Is the folder `d` (relative to a skill) one of that skill's resource folders, or inside one? */
const inRootSkillFolder = (d: string) => ROOT_SKILL_FOLDERS.some((f) => d === f || d.startsWith(`${f}/`));

/**
 * Is the project folder `d` the root skill's own: one of its resource folders, or any folder below
 * it that no `skills/` folder holds? A router skill at the top of its collection keeps the
 * collection's skills in a `skills/` folder (`skills/x/`, `.claude/skills/x/`, `plugins/p/skills/x/`),
 * each a skill of its own; a SKILL.md in its other folders (`bitable/SKILL.md` below `feishu`'s root
 * SKILL.md, `examples/x/`, `template/`) is a node of the root skill's tree, which installers copy as
 * its folder — `npx skills add` reads a repository whose root holds a SKILL.md as that one skill
 * (held-out round 85: a skill whose sub-skills it searches for itself).
 */
const ownedByRootSkill = (d: string) => inRootSkillFolder(d) || skillsFoldersOf(d).length === 0;

/**
 * The skills among the SKILL.md folders a walk found. `skillsDirs` null: every folder is a skill
 * (except those inside another). Else the project-relative skills directories that exist: the
 * folders inside them are the skills, every other one is unchecked. The root skill (a SKILL.md with
 * frontmatter at the root) is a skill where every folder is, and where a skills directory is the
 * root itself; it holds no other skill but those in its own folders (ROOT_SKILL_FOLDERS).
 */
export function classify(
  walk: Walk,
  skillsDirs: readonly string[] | null,
  realOf: (dir: string) => string | null,
  frontmatterIn: (dir: string) => boolean | null = () => true,
  /** is the folder a code package's (model/skill-dir.ts isPackageFolder)? */
  packageIn: (dir: string) => boolean = () => false,
): Discovery {
  // each SKILL.md read once, whether indexes or fragments ask (a folder may be asked of by both)
  const read = new Map<string, boolean | null>();
  const frontmatter = (dir: string) => {
    if (!read.has(dir)) read.set(dir, frontmatterIn(dir));
    return read.get(dir)!;
  };
  const indexes = skillsDirs === null ? indexesOf(walk.skillDirs, frontmatter) : [];
  // a SKILL.md without frontmatter in a code package's folder (packageIn: below the root, in no
  // skills folder, beside its manifest): the package's document
  const packageDocs =
    skillsDirs === null ? walk.skillDirs.filter((d) => !indexes.includes(d) && packageIn(d) && frontmatter(d) === false).sort() : [];
  const notSkills = new Set([...indexes, ...packageDocs]);
  const skillDirs = notSkills.size === 0 ? walk.skillDirs : walk.skillDirs.filter((d) => !notSkills.has(d));
  return { ...withoutFragments(classifyFolders({ ...walk, skillDirs }, skillsDirs, realOf), frontmatter), indexes, packageDocs };
}

/**
 * The indexes among the SKILL.md folders (Discovery.indexes): a folder below the root whose SKILL.md
 * has no frontmatter, with a skill below it that has one outside the folder's own resource folders
 * (a SKILL.md in `assets/` is a template of the skill above it, which then is a skill that lacks
 * its frontmatter), and outside every agent's skills folder. Only folders with another SKILL.md
 * folder below them are read (the first bytes).
 */
function indexesOf(found: readonly string[], frontmatterIn: (dir: string) => boolean | null): string[] {
  const above = new Set<string>();
  for (const d of found) for (let i = d.lastIndexOf('/'); i > 0; i = d.lastIndexOf('/', i - 1)) above.add(d.slice(0, i));
  const out: string[] = [];
  for (const d of found) {
    // in an agent's skills folder the agent loads it as a skill (one that lacks its frontmatter)
    if (d === '' || !above.has(d) || inAgentSkills(d) || frontmatterIn(d) !== false) continue;
    const below = found.filter((e) => e.startsWith(`${d}/`) && !inRootSkillFolder(e.slice(d.length + 1)));
    if (below.some((e) => frontmatterIn(e) === true)) out.push(d);
  }
  return out.sort();
}

/**
 * The skills that are fragments of another (Discovery.fragments) moved out of the skills. Only
 * folders that share their name with another skill are read to know (the first bytes of SKILL.md).
 */
function withoutFragments(
  d: Omit<Discovery, 'fragments' | 'indexes' | 'packageDocs'>,
  frontmatterIn: (dir: string) => boolean | null,
): Omit<Discovery, 'indexes' | 'packageDocs'> {
  const byName = new Map<string, string[]>();
  for (const dir of d.skills) {
    if (dir === '') continue;
    const name = dir.slice(dir.lastIndexOf('/') + 1);
    byName.set(name, [...(byName.get(name) ?? []), dir]);
  }
  const fragments: string[] = [];
  for (const dirs of byName.values()) {
    if (dirs.length < 2) continue;
    const has = new Map(dirs.map((dir) => [dir, frontmatterIn(dir)]));
    if (!dirs.some((dir) => has.get(dir) === true)) continue;
    // a piece is a SKILL.md read without a frontmatter; one that cannot be read (a dangling
    // symbolic link, a file without read permission) is a skill that fails to load: checked. One in
    // an agent's skills folder (`.agents/skills/x/`, `.claude/skills/x/`) is no piece: that agent
    // loads it as a skill (held-out round 56: Codex copies generated without their frontmatter)
    fragments.push(...dirs.filter((dir) => has.get(dir) === false && !inAgentSkills(dir)));
  }
  if (fragments.length === 0) return { ...d, fragments };
  return { ...d, skills: d.skills.filter((dir) => !fragments.includes(dir)), fragments: fragments.sort() };
}

function classifyFolders(
  walk: Walk,
  skillsDirs: readonly string[] | null,
  realOf: (dir: string) => string | null,
): Omit<Discovery, 'fragments' | 'indexes' | 'packageDocs'> {
  const base = { subprojects: walk.subprojects, ignored: walk.ignored, rootIndex: walk.rootIndex, unreadable: walk.unreadable };
  const found = walk.skillDirs.filter((d) => d !== '');
  const realRoot = realOf('');
  const rootChecked =
    walk.skillDirs.includes('') && (skillsDirs === null || (realRoot !== null && skillsDirs.some((d) => realOf(d) === realRoot)));
  const unchecked: UncheckedSkill[] = walk.skillDirs.includes('') && !rootChecked ? [{ dir: '', reason: 'root' }] : [];
  /** the skills and the folders inside them, with the root skill's own folders moved to it */
  // where the root is a skills directory the user named (`skills_dir: .`), the folders in it are its skills
  const owned = skillsDirs === null ? ownedByRootSkill : inRootSkillFolder;
  const withRoot = (skills: readonly string[], nested: readonly string[]) => {
    if (!rootChecked) return { skills: [...skills], nested: [...nested] };
    const own = skills.filter(owned);
    return { skills: ['', ...skills.filter((d) => !owned(d))], nested: [...nested, ...own].sort() };
  };
  /** folders of `list` with another folder of `list` above them (by `key`: the path or the real path, separated by `s`) */
  const within = (list: readonly string[], key: (x: string) => string, s: string) => {
    const keys = new Set(list.map(key));
    return (d: string) => {
      const k = key(d);
      for (let i = k.lastIndexOf(s); i > 0; i = k.lastIndexOf(s, i - 1)) if (keys.has(k.slice(0, i))) return true;
      return false;
    };
  };
  if (skillsDirs === null) {
    const isNested = withinSkill(found);
    return {
      ...base,
      ...withRoot(
        found.filter((d) => !isNested(d)),
        found.filter(isNested),
      ),
      unchecked,
    };
  }
  const realOfFound = (d: string) => walk.realPaths.get(d)!;
  const homes = skillsDirs.map((d) => realOf(d)).filter((r): r is string => r !== null);
  const skills = new Set<string>();
  const nested = new Set<string>();
  for (const home of homes) {
    const candidates = found.filter((d) => inside(realOfFound(d), home));
    const isNested = within(candidates, realOfFound, sep);
    for (const d of candidates) (isNested(d) && !inCodexSkills(d) ? nested : skills).add(d);
  }
  for (const d of skills) nested.delete(d);
  const rest = found.filter((d) => !skills.has(d) && !nested.has(d));
  const restNested = within(rest, realOfFound, sep);
  for (const d of rest) {
    // a SKILL.md inside another one that is not checked is part of it: reported once, at the outer one
    if (restNested(d)) continue;
    unchecked.push({ dir: d, reason: homes.includes(realOfFound(d)) ? 'skills-dir' : 'outside' });
  }
  return { ...base, ...withRoot([...skills].sort(), [...nested].sort()), unchecked };
}

/**
 * Is the folder `d` (project-relative) below a Codex skills folder (`.agents/skills/`, `.codex/skills/`)?
 * Codex walks such a folder to the bottom and loads every SKILL.md in it, a skill's sub-folders
 * included (openai/codex, `codex-rs/core/src/skills/loader.rs`): there, a SKILL.md inside another
 * skill's folder is a skill of its own (`.agents/skills/dailybot/ask/SKILL.md`).
 */
const inCodexSkills = (d: string) => agentSkillsAbove(d).some(({ place }) => place === '.agents' || place === '.codex');

/** Is the folder `d` (project-relative) below an agent's skills folder (`.claude/skills/`, `.agents/skills/`, `.cursor/skills/`)? */
const inAgentSkills = (d: string) => agentSkillsAbove(d).length > 0;

/** The agents' skills folders strictly above the folder `d` (skillsFoldersOf, without `d` itself). */
const agentSkillsAbove = (d: string) => skillsFoldersOf(d).filter(({ place, at }) => isAgentFolder(place) && at !== `${d}/`);

/** Is the folder `d` (project-relative) a skills directory: named `skills` (`.aceharness/skills/`, `plugins/x/skills/`)? */

/**
 * The test for a folder of `found` that is inside another one's skill folder (part of that skill),
 * but in a Codex skills folder (inCodexSkills), where every SKILL.md is a skill. A SKILL.md whose folder is a skills directory (isSkillsFolder: `.aceharness/skills/SKILL.md`
 * beside the skills it lists) is the router of that directory, as the root skill is of its
 * repository: the skills below it are skills of their own, and only a SKILL.md in its own resource
 * folders (ROOT_SKILL_FOLDERS) is part of it.
 */
function withinSkill(found: readonly string[]): (d: string) => boolean {
  const keys = new Set(found);
  return (d: string) => {
    if (inCodexSkills(d)) return false;
    for (let i = d.lastIndexOf('/'); i > 0; i = d.lastIndexOf('/', i - 1)) {
      const above = d.slice(0, i);
      if (!keys.has(above)) continue;
      if (!isSkillsFolder(above) || inRootSkillFolder(d.slice(i + 1))) return true;
    }
    return false;
  };
}

/**
 * The skills directories of a project whose skills were found everywhere, sorted: for each skill,
 * the nearest folder above it named `skills` (`.claude/skills/`, `plugins/x/skills/`, `skills/` with
 * category folders inside), else the folder that holds it (`agents/cli/`). Two skills with one name
 * in two of them (a plugin's and a copy for another agent) are not a clash (skill-duplicate-name).
 */
export function homesOf(skills: readonly string[]): string[] {
  const home = (d: string) => {
    const parts = d.split('/');
    const at = parts.lastIndexOf('skills', parts.length - 2);
    return parts.slice(0, at >= 0 ? at + 1 : parts.length - 1).join('/');
  };
  return [...new Set(skills.map(home))].sort();
}

/** The folders that hold the skills (the parent of each skill folder), sorted. */
export function foldersOf(skills: readonly string[]): string[] {
  return [...new Set(skills.map((d) => (d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '')))].sort();
}
