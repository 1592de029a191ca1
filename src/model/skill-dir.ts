/**
 * Paths inside a skill's folder. A skill's folder is a project-relative path, and '' for the root
 * skill — a repository that is one skill (SKILL.md, scripts/, references/ at its top), or a router
 * skill at the top of its collection. Every "path inside a skill's folder" goes through here, so the
 * root skill needs no special case elsewhere (`${dir}/SKILL.md` would be `/SKILL.md` for it).
 */
import { basename, posix, resolve } from 'node:path';

/** The project-relative path of `rel` inside the folder `dir`: `SKILL.md` for the root skill, `skills/a/SKILL.md` for `skills/a`. */
export function inSkillDir(dir: string, rel: string): string {
  if (dir === '') return rel;
  return rel === '' ? dir : `${dir}/${rel}`;
}

/** Is the project-relative `path` strictly inside the folder `dir`? The root ('') holds every path of the project. */
export function isInsideDir(path: string, dir: string): boolean {
  if (dir === '') return path !== '' && path !== '.' && path !== '..' && !path.startsWith('../') && !path.startsWith('/');
  return path.startsWith(`${dir}/`);
}

/** `path` relative to the folder `dir` that holds it (isInsideDir): `references/a.md`. */
export function relativeToDir(path: string, dir: string): string {
  return dir === '' ? path : path.slice(dir.length + 1);
}

/** The folder of a skill as messages show it: `skills/a`, and `./` for the root skill. */
export function shownSkillDir(dir: string): string {
  return dir === '' ? './' : dir;
}

/**
 * The name of a skill's folder, as messages and name suggestions use it: the last part of its path.
 * The root skill's folder is the one the repository was cloned into or installed under, which is
 * not the author's choice: its frontmatter name when it has one, else that folder's name.
 */
export function skillDirName(dir: string, root: string, frontmatterName?: string): string {
  if (dir !== '') return dir.slice(dir.lastIndexOf('/') + 1);
  return frontmatterName !== undefined && frontmatterName !== '' ? frontmatterName : basename(resolve(root)) || 'skill';
}

/**
 * For each of the skill folders `dirs`, the folders of `dirs` strictly inside it, relative to it: the
 * skills below a root skill (or below another skill), which are skills of their own and none of its
 * files. A folder with none is absent. Each folder's parents are looked up, never the whole list per
 * folder: linear in the number of folders times their depth.
 */
export function skillsInside(dirs: readonly string[]): Map<string, string[]> {
  const known = new Set(dirs);
  const inside = new Map<string, string[]>();
  const add = (outer: string, d: string) => {
    let list = inside.get(outer);
    if (!list) inside.set(outer, (list = []));
    list.push(relativeToDir(d, outer));
  };
  for (const d of dirs) {
    if (d === '') continue;
    for (let i = d.lastIndexOf('/'); i > 0; i = d.lastIndexOf('/', i - 1)) if (known.has(d.slice(0, i))) add(d.slice(0, i), d);
    if (known.has('') && isInsideDir(d, '')) add('', d);
  }
  return inside;
}

/** Is `path` (relative to a skill's folder) one of the folders `inner` (skillsInside), or inside one? */
export function inOneOf(path: string, inner: readonly string[]): boolean {
  return inner.some((d) => path === d || path.startsWith(`${d}/`));
}

/** Is `path` (relative to a skill's folder) one of the folders `inner` (skillsInside), or does it hold one? */
export function holdsOneOf(path: string, inner: readonly string[]): boolean {
  return inner.some((d) => d === path || d.startsWith(`${path}/`));
}

const owners = new WeakMap<readonly { dir: string }[], Map<string, { dir: string }>>();

/**
 * The skill whose folder holds the project-relative `path`: the deepest one, so a file of a skill
 * below the root skill is that skill's, not the root skill's. Null when no skill's folder holds it.
 */
export function skillHolding<S extends { dir: string }>(skills: readonly S[], path: string): S | null {
  let byDir = owners.get(skills) as Map<string, S> | undefined;
  if (byDir === undefined) {
    byDir = new Map(skills.map((s) => [s.dir, s]));
    owners.set(skills, byDir);
  }
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
    const s = byDir.get(path.slice(0, i));
    if (s !== undefined) return s;
  }
  return isInsideDir(path, '') ? (byDir.get('') ?? null) : null;
}

/**
 * The folder of the collection a skill belongs to, in the layout `<collection>/skills/<skill>/` (a
 * plugin, a skill pack): its shared files (`hooks`, `shared/`, `docs/`) sit there, and SKILL.md may
 * name them from it (`scripts/guard.py`, `${CLAUDE_PLUGIN_ROOT}/shared/x.md`). '' for a top-level
 * `skills/` folder; null when the skill's folder is not directly in a folder named `skills`.
 */
export function collectionDir(dir: string): string | null {
  const parts = dir.split('/');
  if (parts.length < 2 || parts[parts.length - 2] !== 'skills') return null;
  return parts.slice(0, -2).join('/');
}

/** Where `path`, named from a skill's collection folder (collectionDir), is in the project; null without one. */
export function inCollection(skillDir: string, path: string): string | null {
  const c = collectionDir(skillDir);
  return c === null ? null : posix.normalize(inSkillDir(c, path));
}

/** Does `path`, relative to a folder that holds it, lie in a hidden folder (`.github/x.md`, `a/.cache/b.md`)? */
function inHiddenFolder(rel: string): boolean {
  return rel
    .split('/')
    .slice(0, -1)
    .some((part) => part.startsWith('.') && part !== '.' && part !== '..');
}

/**
 * May the project-relative `path` be one of the reference files of the skill in `skillDir` — a
 * file the rules that judge reference files (a table of contents, nested references, their links
 * and anchors) hold to the skill-authoring guidance? A file inside the skill's folder, or one its
 * collection shares: in the folder that holds the skill's folder (`skills/shared/x.md`,
 * `.github/skills/_shared/x.md`, a sibling skill's file), or in the folder of the plugin or pack it
 * belongs to (`<plugin>/shared/x.md` for `<plugin>/skills/<skill>/`; `.github/` of `.github/skills/`
 * is the repository's, not a pack). Never a document of the
 * repository the skill sits in that a skill happens to name (`.github/copilot-instructions.md`,
 * `docs/CONTRIBUTING.md`), nor a file in a hidden folder (`.github/…` of a repository that is one
 * skill: the repository's configuration, not the skill's).
 */
export function isSkillReferencePath(skillDir: string, path: string): boolean {
  const within = (dir: string) => isInsideDir(path, dir) && !inHiddenFolder(relativeToDir(path, dir));
  if (within(skillDir)) return true;
  if (skillDir === '') return false;
  // the folder that holds the skill's folder, unless that is the repository itself
  const holder = posix.dirname(skillDir);
  if (holder !== '.' && within(holder)) return true;
  // a plugin or pack; not the repository's root, nor an agent's folder of it (`.github/`, `.claude/`)
  const pack = collectionDir(skillDir);
  return pack !== null && pack !== '' && !posix.basename(pack).startsWith('.') && within(pack);
}

/**
 * A path SKILL.md names that may be a shared document outside the skill's folders (a markdown file
 * named with a folder: `docs/framework.md`, `.github/skills/shared/x.md`): the project model finds
 * whether it exists (sharedPlaces), and the rules that count shared references read that answer.
 */
export function mayBeSharedDocument(path: string): boolean {
  return path.includes('/') && /\.md$/iu.test(path);
}

/**
 * The places a path SKILL.md names but its own folders do not hold may mean: the file of the skill's
 * collection (inCollection), and the file of the project named from its root (`.github/skills/shared/x.md`,
 * `docs/framework.md`: the repository's own paths). A path that climbs out (`../x.md`) or is absolute
 * has no such place.
 */
export function sharedPlaces(skillDir: string, path: string): string[] {
  const places: string[] = [];
  const inPack = inCollection(skillDir, path);
  if (inPack !== null) places.push(inPack);
  const fromRoot = posix.normalize(path.replace(/^(?:\.\/)+/u, ''));
  if (!fromRoot.startsWith('..') && !fromRoot.startsWith('/') && !fromRoot.startsWith('~') && !places.includes(fromRoot))
    places.push(fromRoot);
  return places;
}

/** The manifests of a code package (npm, Python, Rust, Go): a folder holding one is a package's folder. */
const PACKAGE_MANIFESTS: readonly string[] = ['package.json', 'pyproject.toml', 'setup.py', 'Cargo.toml', 'go.mod'];

/**
 * Is the skill's folder a code package's folder (`packages/cli/` with its `package.json`), outside
 * every folder named `skills`? Its SKILL.md ships with the package (npm's `files`), and the folder
 * is named for the code, not chosen for the skill: like the root skill's, its name is not the
 * skill's folder name. A skill in `skills/` that holds a `package.json` for its scripts is a skill
 * folder as any other. `holds` says whether the folder holds a file of that name.
 */
export function isPackageFolder(dir: string, holds: (file: string) => boolean): boolean {
  if (dir === '' || dir.split('/').includes('skills')) return false;
  return PACKAGE_MANIFESTS.some(holds);
}

/**
 * The folders a project keeps for other things than skills, by name, and what they are. Discovery
 * ignores them by default (discover/ignore.ts) but for one that holds a SKILL.md itself, which may
 * be a skill named so (`build`, `tests`).
 */
export const OTHER_USE_FOLDERS: Readonly<Record<string, string>> = {
  '.git': 'version control',
  '.hg': 'version control',
  '.svn': 'version control',
  node_modules: 'dependencies',
  '.venv': 'dependencies',
  venv: 'dependencies',
  dist: 'build output',
  build: 'build output',
  out: 'build output',
  coverage: 'build output',
  test: 'tests and their fixtures',
  tests: 'tests and their fixtures',
  fixtures: 'tests and their fixtures',
  testdata: 'tests and their fixtures',
  scenarios: 'tests and their fixtures',
  tmp: 'temporary files',
};

/** A `<place>/skills/` folder above a skill's folder: `.claude` and `.claude/skills/` for `.claude/skills/a`. */
export interface SkillsFolder {
  /** the name of the folder that holds `skills/`: `.claude`, `.agents`, `x` for `plugins/x/skills/`, '' for a top-level `skills/` */
  place: string;
  /** the `skills/` folder, project-relative, with a trailing `/` */
  at: string;
}

/**
 * The `skills/` folders that hold the project-relative folder `dir` or are it, nearest first: for
 * `.agents/skills/x/.claude/skills/y`, `.claude/skills/` then `.agents/skills/`. The one walk that both
 * discovery (is a SKILL.md below an agent's skills folder?) and targets (whose folder is it in?) read.
 */
export function skillsFoldersOf(dir: string): SkillsFolder[] {
  const parts = dir === '' ? [] : dir.split('/');
  const found: SkillsFolder[] = [];
  for (let i = parts.length - 2; i >= -1; i--) {
    if (parts[i + 1] !== 'skills') continue;
    found.push({ place: i < 0 ? '' : parts[i]!, at: `${parts.slice(0, i + 2).join('/')}/` });
  }
  return found;
}

/** The project folder that holds a skills folder's `skills/` (`apps/web/.claude` for `apps/web/.claude/skills/`; '' at the top). */
export const skillsHolder = (f: SkillsFolder): string => f.at.slice(0, -'skills/'.length).replace(/\/$/u, '');

/** The project folder that holds a skills folder's place (`apps/web` for `apps/web/.claude/skills/`; '' at the top). */
export const placeHolder = (f: SkillsFolder): string => f.at.slice(0, -`${f.place}/skills/`.length).replace(/\/$/u, '');

/** Is the project folder `d` a folder named `skills` (a skills directory, or the folder of a router skill in one)? */
export const isSkillsFolder = (d: string): boolean => d === 'skills' || d.endsWith('/skills');

/** Is `place` (SkillsFolder) an agent's own folder: a dot-folder such as `.claude`, `.agents`, `.cursor`? */
export const isAgentFolder = (place: string): boolean => /^\.[^./]/u.test(place);
