/**
 * Reads a project: discovery, the files of every skill, the per-file phase (through a FileRunner:
 * inline, cached or on worker threads), and the Project model built from the extracted facts.
 */
import { join, posix, relative, sep } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { plainAgentSkills } from '../config/presets.js';
import { classify, foldersOf, homesOf, resolveSkillsDirs, type Discovery, type UncheckedSkill } from '../discover/discover.js';
import { agentLoaders, discoverAgents, type AgentDiscovery } from '../discover/agents.js';
import { gitIgnoredPaths, IgnoreRules } from '../discover/ignore.js';
import { hasFrontmatter, walkProject, type IgnoredFolder } from '../discover/walk.js';
import { declaredStates, linkPlaces, namedPlace } from '../model/skill.js';
import {
  holdsOneOf,
  inOneOf,
  inSkillDir,
  isAgentFolder,
  isPackageFolder,
  isSkillsFolder,
  mayBeSharedDocument,
  placeHolder,
  sharedPlaces,
  skillDirName,
  skillsFoldersOf,
  skillsInside,
} from '../model/skill-dir.js';
import { asPart, type Target } from '../model/targets.js';
import type { FileKind, FileModel, LoadProblem, LocalLink, Project, ReferencedFile, Skill } from '../model/types.js';
import type { AgentDef, PluginManifest } from '../model/agents.js';
import { parseAgent } from '../parse/agent.js';
import { isLoopContract } from '../parse/dsl.js';
import { parseManifest } from '../parse/manifest.js';
import { confine, rootOf } from '../parse/confine.js';
import { ProjectError } from '../parse/errors.js';
import {
  acceptText,
  exists,
  existsFromRealPlace,
  fileStat,
  globMatches,
  insideRoot,
  linkStat,
  LINK_OUT,
  isGlobSegment,
  isDirectory,
  listDir,
  type DirEntries,
  type Listings,
  markdownFilesUnder,
  pathOnDisk,
  readText,
  type ReadResult,
} from '../parse/fs.js';
import { fileStamp, type FileStamp, type JobKey } from './cache.js';
import { markdownLinkDestinations } from '../util/paths.js';
import type { FileJob, FileOutcome } from './file-phase.js';
import type { FileRunner } from './runner.js';
import { targetResolver } from './targets.js';

/** Scripts larger than this are not read. */
const MAX_SCRIPT_BYTES = 1024 * 1024;

/** A file in the role the project reads it in, with the skill it belongs to. */
export interface RoleFile {
  path: string;
  kind: FileKind;
  /** index of the skill (in Project.skills) the file belongs to; -1 for none */
  skill: number;
}

export interface LoadedProject {
  project: Project;
  /** outcomes of the per-file phase by project-relative path: markdown files */
  markdown: ReadonlyMap<string, FileOutcome>;
  /** … and the files of `scripts/` directories */
  scripts: ReadonlyMap<string, FileOutcome>;
  /** every file the project reads, in its role, in a stable order (skills in order, then README) */
  roles: readonly RoleFile[];
  /** timings in milliseconds */
  timing: { read: number; files: number };
}

function decodeTarget(t: string): string {
  try {
    return decodeURI(t);
  } catch {
    return t;
  }
}

/** A skill as the read phase found it: its place and files, before the model is built. */
export interface SkillDraft {
  dir: string;
  dirName: string;
  skillPath: string;
  loopPath: string | null;
  loopReadError?: string;
  handoffsPath: string | null;
  entries: Skill['entries'];
  scripts: string[] | null;
  readmeLinks?: string[];
}

/** Where a project's skills are: its skills directories and the skill directories in them. */
export interface Layout {
  /**
   * project-relative skills directories ('' = the root): as `skills_dir` names them, in setting
   * order; where every SKILL.md is a skill, the folders that hold skills
   */
  skillsDirs: string[];
  /** project-relative skill directories, sorted */
  dirs: string[];
  /** every SKILL.md of the project is a skill (no skills directories) */
  everywhere: boolean;
  /** SKILL.md files found where they are not checked (reported by skill-outside-skills-dir), sorted by folder */
  unchecked: UncheckedSkill[];
  /** directories with a SKILL.md inside a checked skill (its sub-folders are part of it, not skills of their own), sorted */
  nested: string[];
  /** directories whose SKILL.md, without frontmatter, is a piece of another skill of its name (Discovery.fragments), sorted */
  fragments: string[];
  /** directories below the root whose SKILL.md, without frontmatter, is an index of the skills below it (Discovery.indexes), sorted */
  indexes: string[];
  /** code packages' folders whose SKILL.md, without frontmatter, is a document of the package (Discovery.packageDocs), sorted */
  packageDocs: string[];
  /** folders below the root with a `.loopkit.yaml` of their own (other projects, not walked), sorted */
  subprojects: string[];
  /** folders not walked because they are ignored, sorted */
  ignored: IgnoredFolder[];
  /** the project root holds a SKILL.md without frontmatter: an index of the collection, not a skill */
  rootIndex: boolean;
  /** folders that could not be read: any skill in them was not found, sorted */
  unreadable: string[];
  /** the agent files and plugin manifests (discover/agents.ts) */
  agents: AgentDiscovery;
}

export interface LayoutOptions {
  /** every SKILL.md is a skill: the project has no `.loopkit.yaml`, or its preset finds skills everywhere and it writes no `skills_dir` */
  everywhere: boolean;
  /** `--ignore-pattern`s */
  ignorePatterns?: readonly string[];
}

/** `skills_dir` where the config does not write it and the preset does not find skills everywhere (the reference's default). */
const DEFAULT_SKILLS_DIR = 'skills/';

/** How discovery reads a project's folders: each one's real place, whether its SKILL.md has frontmatter, whether it is a code package's. */
function foldersReader(root: string): {
  realOf: (d: string) => string | null;
  frontmatterIn: (d: string) => boolean | null;
  packageIn: (d: string) => boolean;
} {
  return {
    realOf: (d) => insideRoot(join(root, d), root),
    frontmatterIn: (d) => hasFrontmatter(join(root, d, 'SKILL.md'), root),
    packageIn: (d) => isPackageFolder(d, (f) => exists(join(root, d, f))),
  };
}

/**
 * Every skill of the project at `root` found everywhere with no settings (what `loopkit init` sees),
 * classified as `check` classifies them: indexes, pieces of another skill and package documents are
 * no skills.
 */
export function everySkill(root: string): string[] {
  const rules = IgnoreRules.forProject(root, { ignores: [], configFile: null, ignorePatterns: [] });
  const { realOf, frontmatterIn, packageIn } = foldersReader(root);
  return classify(walkProject(root, rules), null, realOf, frontmatterIn, packageIn).skills;
}

/**
 * The skills of a project (discover/discover.ts): every SKILL.md that is not ignored, either as a
 * skill or, outside the skills directories, as a skill that is not checked. A named skills
 * directory that does not exist, or a project without any SKILL.md, is a ProjectError (exit 2).
 */
export function projectLayout(root: string, displayRoot: string, loaded: LoadedConfig, options: LayoutOptions): Layout {
  const rules = IgnoreRules.forProject(root, {
    ignores: loaded.config.ignores,
    configFile: loaded.file,
    ignorePatterns: options.ignorePatterns ?? [],
  });
  const layoutOf = (d: Discovery, skillsDirs: string[], everywhere: boolean): Layout => ({
    agents: agentsOf(root, displayRoot, loaded, rules, d.skills),
    skillsDirs,
    dirs: d.skills,
    everywhere,
    unchecked: d.unchecked,
    nested: d.nested,
    fragments: d.fragments,
    indexes: d.indexes,
    packageDocs: d.packageDocs,
    subprojects: d.subprojects,
    ignored: d.ignored,
    rootIndex: d.rootIndex,
    unreadable: d.unreadable,
  });
  const { realOf, frontmatterIn, packageIn } = foldersReader(root);
  if (options.everywhere) {
    const found = classify(walkProject(root, rules), null, realOf, frontmatterIn, packageIn);
    if (found.skills.length === 0 && found.unchecked.length === 0) {
      const index = found.rootIndex ? '; the SKILL.md at the root has no frontmatter, so it is no skill' : '';
      throw new ProjectError(`no skills found in ${displayRoot}: no SKILL.md below the root${ignoredSummary(found.ignored)}${index}`);
    }
    return layoutOf(found, homesOf(found.skills), true);
  }
  const written = loaded.positions.has('skills_dir');
  const patterns = written ? loaded.config.skills_dir : [DEFAULT_SKILLS_DIR];
  const { dirs, missing } = resolveSkillsDirs(root, patterns);
  if (missing.length > 0) {
    if (written) {
      const i = loaded.config.skills_dir.indexOf(missing[0]!);
      const pos = loaded.valuePositions.get(loaded.config.skills_dir.length > 1 ? `skills_dir.${i}` : 'skills_dir');
      const where = loaded.file && pos ? ` (skills_dir at ${loaded.file}:${pos.line}:${pos.column})` : '';
      throw new ProjectError(`skills directory '${missing[0]}' not found in ${displayRoot}${where}`);
    }
    // the loop-language preset's default: say where the skills are instead
    const unchecked = classify(walkProject(root, rules), [], realOf).unchecked;
    const elsewhere = unchecked.filter((u) => u.dir !== '');
    const folders = foldersOf(elsewhere.map((u) => u.dir));
    // a repository that is one skill: its SKILL.md is at the root
    const rootSkill = unchecked.some((u) => u.dir === '')
      ? `; the SKILL.md at the root is a skill: write \`skills_dir: .\` in ${loaded.file ?? '.loopkit.yaml'} to check a repository that is one skill (the folders below with a SKILL.md are skills too)`
      : '';
    const shown =
      folders
        .slice(0, 3)
        .map((f) => `${f}/`)
        .join(', ') + (folders.length > 3 ? ', …' : '');
    throw new ProjectError(
      `skills directory '${DEFAULT_SKILLS_DIR}' (the default of skills_dir) not found in ${displayRoot}` +
        (elsewhere.length > 0
          ? `; ${elsewhere.length} SKILL.md ${elsewhere.length === 1 ? 'file is' : 'files are'} in ${shown}: name ${folders.length === 1 ? 'that folder' : 'those folders'} in skills_dir in ${loaded.file ?? '.loopkit.yaml'}, or write \`extends: agent-skills\` to check every SKILL.md of the project`
          : '') +
        rootSkill,
    );
  }
  if (dirs.length === 0) throw new ProjectError(`no directory matches skills_dir (${patterns.join(', ')}) in ${displayRoot}`);
  return layoutOf(classify(walkProject(root, rules, dirs), dirs, realOf, frontmatterIn), dirs, false);
}

/** The agent files and manifests; a folder `agents:` names that does not exist is a ProjectError (exit 2), located. */
function agentsOf(root: string, displayRoot: string, loaded: LoadedConfig, rules: IgnoreRules, skills: readonly string[]): AgentDiscovery {
  const named = loaded.config.agents;
  named.forEach((place, i) => {
    if (exists(join(root, place))) return;
    const pos = loaded.valuePositions.get(named.length > 1 ? `agents.${i}` : 'agents');
    const where = loaded.file && pos ? ` (agents at ${loaded.file}:${pos.line}:${pos.column})` : '';
    throw new ProjectError(`agents folder '${place}' not found in ${displayRoot}${where}`);
  });
  return discoverAgents(root, rules, skills, named);
}

/** `; 3 folders ignored: build/ (default), …` for a message that no skill was found. */
function ignoredSummary(ignored: readonly IgnoredFolder[]): string {
  if (ignored.length === 0) return '';
  const shown = ignored.slice(0, 3).map((i) => `${i.path}/ (${i.match.source === 'default' ? 'by default' : i.match.source})`);
  return ` (${ignored.length} ${ignored.length === 1 ? 'folder' : 'folders'} ignored: ${shown.join(', ')}${ignored.length > 3 ? ', …' : ''})`;
}

export interface LoadProjectOptions {
  root: string;
  displayRoot: string;
  loaded: LoadedConfig;
  layout: Layout;
  /** the presets the config was built with */
  presets: readonly string[];
  /** read the markdown files SKILL.md links to (only when an enabled rule needs them) */
  references: boolean;
  runner: FileRunner;
  /** texts to read instead of the files on disk (project-relative path → text) */
  overlay?: ReadonlyMap<string, string>;
  /** directory listings to reuse (a session keeps them until files are created or deleted) */
  listings?: Listings;
  /** the places pathOnDisk answered from those listings (kept and forgotten with them) */
  placesOnDisk?: Map<string, string | null>;
  /**
   * The skills of the model before, by SKILL.md path, with the per-file outcomes each was made from:
   * a skill whose outcomes are the same objects is the same skill (a session keeps it until the
   * project is read again, projectModel fills it)
   */
  skillModels?: Map<string, { inputs: readonly unknown[]; skill: Skill; references: readonly string[] }>;
  /** the targets the command line names (`--target`): every skill's, instead of the configured or detected ones */
  targets?: readonly Target[];
}

/**
 * Read a project in its phases: the files of every skill through the per-file phase
 * (readProjectFiles), the reference files they link to (readReferences), then the model from the
 * outcomes (projectModel).
 */
export async function loadProject(opts: LoadProjectOptions): Promise<LoadedProject> {
  const t1 = performance.now();
  const files = await readProjectFiles(opts);
  if (opts.references) await readReferences(opts, files);
  const t3 = performance.now();
  const project = projectModel(opts, files);
  const { markdown, scripts, roles, readMs } = files;
  return { project, markdown, scripts, roles, timing: { read: readMs, files: t3 - t1 - readMs } };
}

/** The files of a project as read: each skill's place, every file in its role, the outcomes of the per-file phase. */
export interface ProjectFiles {
  drafts: SkillDraft[];
  roles: RoleFile[];
  problems: LoadProblem[];
  /** outcomes by project-relative path: markdown files, and the files of `scripts/` directories */
  markdown: Map<string, FileOutcome>;
  scripts: Map<string, FileOutcome>;
  hasReadme: boolean;
  /** milliseconds spent reading files */
  readMs: number;
  /** the directories listed while reading (each is read once; the model's link checks use them too) */
  dirs: DirEntries;
  /** the agent definitions and plugin manifests, read */
  agents: AgentDef[];
  manifests: PluginManifest[];
}

/**
 * Does the project read this LOOP.md as the skill's contract? Checked as a plain Agent Skills
 * collection, a LOOP.md that is no contract is a reference document.
 */
export function readsLoop(presets: readonly string[], config: LoadedConfig['config'], text: string): boolean {
  return !loopsByText(presets) || isLoopContract(text, config.canonical_loop_sections);
}

/** Is a LOOP.md the contract only when its text is one (a plain Agent Skills collection)? Then it must be read to know. */
function loopsByText(presets: readonly string[]): boolean {
  return plainAgentSkills(presets);
}

/** A file as the reader opened it: known unchanged by its stamp (handed on from the cache, not read), or read. */
type Opened = { unchanged: true } | { read: ReadResult; stamp?: FileStamp };

/**
 * Reads files of the project (the overlay's text first), counting the time spent on the disk. Stat
 * first: given the file's place in the per-file phase (`key`), a file the runner knows unchanged by
 * its size and times is not read at all — its outcome is handed on and its role recorded here.
 */
function fileReader(opts: LoadProjectOptions, files: ProjectFiles): (abs: string, key?: JobKey, skill?: number) => Opened {
  const { root, overlay, runner } = opts;
  return (abs, key, skill = -1) => {
    const text = overlay?.get(relative(root, abs).split(sep).join('/'));
    const r0 = performance.now();
    try {
      if (text !== undefined || (key && runner.unchanged)) {
        // a link that leads out of the project is none of its files: neither an editor's text of it nor its stamp is taken
        const own = linkStat(abs);
        if (own?.isSymbolicLink() && insideRoot(abs, root) === null) return { read: { error: LINK_OUT } };
        if (text !== undefined) return { read: acceptText(text) };
        const st = own?.isSymbolicLink() ? fileStat(abs) : own;
        if (st?.isFile()) {
          const stamp = fileStamp(st);
          if (runner.unchanged!(key!, stamp, (outcome) => outcomesOf(files, key!.kind).set(key!.path, outcome))) {
            files.roles.push({ path: key!.path, kind: key!.kind, skill });
            return { unchanged: true };
          }
          return { read: readText(abs, root), stamp };
        }
      }
      return { read: readText(abs, root) };
    } finally {
      if (text === undefined) files.readMs += performance.now() - r0;
    }
  };
}

const outcomesOf = (files: ProjectFiles, kind: FileKind) => (kind === 'script' ? files.scripts : files.markdown);

/** Hand a file in its role to the per-file phase; its outcome arrives by path. */
function addFile(opts: LoadProjectOptions, files: ProjectFiles, job: FileJob, skill: number, stamp?: FileStamp): Promise<void> {
  files.roles.push({ path: job.path, kind: job.kind, skill });
  const into = outcomesOf(files, job.kind);
  return opts.runner.add(job, (outcome) => into.set(job.path, outcome), stamp);
}

/**
 * A file of a skill, stat first, into the per-file phase: true when it is there (unchanged, or read
 * and added), else what reading it said (missing, unreadable, or refused by `accept`).
 */
async function addFromDisk(
  opts: LoadProjectOptions,
  files: ProjectFiles,
  read: ReturnType<typeof fileReader>,
  abs: string,
  key: JobKey,
  skill: number,
  accept: (text: string) => boolean = () => true,
): Promise<true | ReadResult> {
  const opened = read(abs, key, skill);
  if ('unchanged' in opened) return true;
  const r = opened.read;
  if (!('text' in r) || !accept(r.text)) return r;
  await addFile(opts, files, { ...key, text: r.text }, skill, opened.stamp);
  return true;
}

/**
 * The read phase: every file of every skill (SKILL.md, LOOP.md or HANDOFFS.md, scripts) and the
 * project README, each handed to the per-file phase as it is read (so only a few batches of text
 * are held at a time).
 */
export async function readProjectFiles(opts: LoadProjectOptions): Promise<ProjectFiles> {
  const { root, runner } = opts;
  const { dirs } = opts.layout;
  const files: ProjectFiles = {
    drafts: [],
    roles: [],
    problems: [],
    markdown: new Map(),
    scripts: new Map(),
    hasReadme: false,
    readMs: 0,
    dirs: new Map(),
    agents: [],
    manifests: [],
  };
  const { problems } = files;
  const read = fileReader(opts, files);
  // a folder the walk could not read may hold skills: that is no PASS (never a note only)
  for (const folder of opts.layout.unreadable) {
    problems.push({
      code: 'skill-read-error',
      file: folder,
      message: `Failed to read the folder ${folder}/: any skill in it was not checked`,
    });
  }
  runner.expect?.(dirs.length);
  const inside = skillsInside(dirs);
  for (const dir of dirs) await readSkillFiles(opts, files, read, dir, inside.get(dir) ?? []);
  const readme = await addFromDisk(opts, files, read, join(root, 'README.md'), { path: 'README.md', kind: 'readme' }, -1);
  files.hasReadme = readme === true;
  readAgents(opts, files, read);
  await runner.flush();
  return files;
}

/** The agent files and plugin manifests: read and parsed here, few and small (no per-file phase, no cache). */
function readAgents(opts: LoadProjectOptions, files: ProjectFiles, read: ReturnType<typeof fileReader>): void {
  const { root } = opts;
  const { agents, manifests } = opts.layout.agents;
  const textOf = (path: string, kind: string): string | null => {
    const r = read(join(root, path));
    if ('read' in r && 'text' in r.read) return r.read.text;
    const why = 'read' in r && 'error' in r.read ? r.read.error : 'unreadable';
    files.problems.push({ code: 'skill-read-error', file: path, message: `Failed to read the ${kind} ${path}: ${why}` });
    return null;
  };
  for (const place of agents) {
    const text = textOf(place.path, 'agent file');
    if (text === null) continue;
    const read = () => parseAgent(place.path, text, place.loader);
    const facts = opts.runner.readFacts ? opts.runner.readFacts(`agent\u0000${place.path}\u0000${place.loader ?? ''}`, text, read) : read();
    files.agents.push({ ...facts, loaders: agentLoaders(place, facts.loader) });
  }
  const onDisk = (place: string) => insideRoot(join(root, place), root) !== null && exists(join(root, place));
  for (const path of manifests) {
    const text = textOf(path, 'plugin manifest');
    if (text !== null) files.manifests.push(parseManifest(path, text, onDisk));
  }
}

/** One skill's files: SKILL.md (with the markdown files next to it), LOOP.md or HANDOFFS.md, its scripts. */
async function readSkillFiles(
  opts: LoadProjectOptions,
  files: ProjectFiles,
  read: ReturnType<typeof fileReader>,
  dir: string,
  inner: readonly string[],
): Promise<void> {
  const { root, loaded } = opts;
  const { drafts, problems } = files;
  const absDir = join(root, dir);
  const index = drafts.length;
  const skillPath = inSkillDir(dir, 'SKILL.md');
  // `inner`: the skills below this one (below a root skill) are skills of their own, their folders none of its files
  // the markdown files next to SKILL.md and in its sub-folders (`references/x.md`): part of its cache key
  const siblings = markdownFilesUnder(absDir, root, 2, files.dirs).filter((p) => !inOneOf(p, inner));
  const skill = await addFromDisk(opts, files, read, join(absDir, 'SKILL.md'), { path: skillPath, kind: 'skill', siblings }, index);
  if (skill !== true) {
    problems.push({
      code: 'skill-read-error',
      file: skillPath,
      message: `Failed to read ${skillPath}: ${'error' in skill ? skill.error : ''}`,
    });
    return;
  }
  const draft: SkillDraft = {
    dir,
    dirName: skillDirName(dir, root),
    skillPath,
    loopPath: null,
    handoffsPath: null,
    entries: listDir(absDir, root, files.dirs).filter((e) => !holdsOneOf(e.name, inner)),
    scripts: null,
  };
  drafts.push(draft);
  // a skill folder that is a repository of its own: what its README.md links is written for people
  const readme = draft.entries.find((e) => e.kind === 'file' && /^readme\.md$/iu.test(e.name));
  if (readme && draft.entries.some((e) => e.name === '.git' || (e.name === '.github' && e.kind === 'dir'))) {
    const r = read(join(absDir, readme.name));
    if ('read' in r && 'text' in r.read) draft.readmeLinks = markdownLinkDestinations(r.read.text);
  }
  const loopPath = inSkillDir(dir, 'LOOP.md');
  // whether a LOOP.md is the contract may depend on its text (a plain Agent Skills collection): then it is read
  const loop = await addFromDisk(
    opts,
    files,
    loopsByText(opts.presets) ? (abs) => read(abs) : read,
    join(absDir, 'LOOP.md'),
    { path: loopPath, kind: 'loop' },
    index,
    (text) => readsLoop(opts.presets, loaded.config, text),
  );
  if (loop === true) draft.loopPath = loopPath;
  else if ('error' in loop && !loop.missing) {
    draft.loopReadError = loop.error;
    problems.push({ code: 'skill-read-error', file: loopPath, message: `Failed to read ${loopPath}: ${loop.error}` });
  }
  if (draft.loopPath === null && draft.loopReadError === undefined) {
    const handoffsPath = inSkillDir(dir, 'HANDOFFS.md');
    if ((await addFromDisk(opts, files, read, join(absDir, 'HANDOFFS.md'), { path: handoffsPath, kind: 'handoffs' }, index)) === true) {
      draft.handoffsPath = handoffsPath;
    }
  }
  if (isDirectory(join(absDir, 'scripts'))) {
    draft.scripts = [];
    for (const e of listDir(join(absDir, 'scripts'), root, files.dirs)) {
      if (e.kind !== 'file') continue;
      const path = inSkillDir(dir, `scripts/${e.name}`);
      const script = await addFromDisk(
        opts,
        files,
        read,
        join(absDir, 'scripts', e.name),
        { path, kind: 'script' },
        index,
        (text) => text.length <= MAX_SCRIPT_BYTES,
      );
      if (script === true) draft.scripts.push(path);
    }
  }
}

/** Where a link of a skill's SKILL.md leads, project-relative. */
function referencePath(draft: SkillDraft, target: string): string {
  return posix.normalize(inSkillDir(draft.dir, decodeTarget(target)));
}

/** The reference phase: the files SKILL.md links to that were not read yet (each once), through the per-file phase. */
export async function readReferences(opts: LoadProjectOptions, files: ProjectFiles): Promise<void> {
  const { root } = opts;
  const { drafts, markdown } = files;
  const read = fileReader(opts, files);
  const queued = new Set<string>();
  const missing = new Set<string>();
  for (let index = 0; index < drafts.length; index++) {
    const draft = drafts[index]!;
    for (const { target } of markdown.get(draft.skillPath)!.facts.file.links) {
      const rel = referencePath(draft, target);
      if (markdown.has(rel) || queued.has(rel) || missing.has(rel)) continue;
      const inside = insideRoot(join(root, rel), root);
      if (inside !== null && (await addFromDisk(opts, files, read, inside, { path: rel, kind: 'reference' }, index)) === true)
        queued.add(rel);
      else missing.add(rel);
    }
  }
  await opts.runner.flush();
}

/** The model phase: the Project, from the outcomes of the per-file phase alone (and which linked paths exist). */
export function projectModel(opts: LoadProjectOptions, files: ProjectFiles): Project {
  const { root, displayRoot, loaded } = opts;
  const { config } = loaded;
  const { drafts, roles, markdown, scripts } = files;
  // a manifest counts where its real place is inside the project (a link leading out is not followed)
  const targetsOf = targetResolver(root, config, opts.targets, (abs) => insideRoot(abs, root) !== null);
  // a skill in another skill's folder (Codex loads every SKILL.md of its folder) is that skill's part too;
  // not below a router whose folder is a skills folder (`.aceharness/skills/SKILL.md`): its collection's skills
  const skillDirs = new Set(drafts.map((d) => d.dir).filter((d) => !isSkillsFolder(d)));
  const enclosing = (dir: string): string | null => {
    for (let i = dir.lastIndexOf('/'); i > 0; i = dir.lastIndexOf('/', i - 1)) if (skillDirs.has(dir.slice(0, i))) return dir.slice(0, i);
    return null;
  };
  const loadersOfSkill = (dir: string, skillPath: string) => {
    const detected = targetsOf(dir, skillPath);
    const parent = enclosing(dir);
    return parent === null ? detected : asPart(detected, parent);
  };
  // a transition's file is its file's path: one string, not a copy per transition
  for (const outcome of markdown.values()) {
    for (const t of outcome.facts.loop?.transitions ?? outcome.facts.handoffs ?? []) (t as { file: string }).file = outcome.facts.file.path;
  }
  const skills: Skill[] = drafts.map((draft) => {
    if (!opts.skillModels) return skillModel(draft);
    // the outcomes the skill is made of: where each is the one it was made from before, it is that skill
    const own = markdown.get(draft.skillPath)!;
    const before = opts.skillModels.get(draft.skillPath);
    // the paths of the files SKILL.md links to, as they were when its text was the same
    const references = !opts.references
      ? []
      : before?.inputs[0] === own
        ? before.references
        : own.facts.file.links.map((l) => referencePath(draft, l.target));
    const inputs = [
      own,
      draft.loopPath ? markdown.get(draft.loopPath) : null,
      draft.handoffsPath ? markdown.get(draft.handoffsPath) : null,
      ...(draft.scripts ?? []).map((p) => scripts.get(p)),
      ...references.map((p) => markdown.get(p)),
    ];
    if (before && before.inputs.length === inputs.length && before.inputs.every((x, i) => x === inputs[i])) return before.skill;
    const skill = skillModel(draft);
    opts.skillModels.set(draft.skillPath, { inputs, skill, references });
    return skill;
  });
  function skillModel(draft: (typeof drafts)[number]): Skill {
    const facts = markdown.get(draft.skillPath)!.facts;
    const sf = facts.skill!;
    const fmValue = sf.frontmatter?.entries.find((e) => e.key === 'name')?.value;
    const fmName = typeof fmValue === 'string' && fmValue.trim() !== '' ? fmValue.trim() : undefined;
    // the root skill's folder is named by where the repository was cloned: its name is the frontmatter's
    const dirName = draft.dir === '' ? skillDirName('', root, fmName) : draft.dirName;
    const loopFacts = draft.loopPath ? markdown.get(draft.loopPath)!.facts : null;
    const handoffFacts = draft.handoffsPath ? markdown.get(draft.handoffsPath)!.facts : null;
    const references = new Map<string, ReferencedFile>();
    for (const { target } of facts.file.links) {
      if (references.has(target)) continue;
      const file: FileModel | null = opts.references ? (markdown.get(referencePath(draft, target))?.facts.file ?? null) : null;
      references.set(target, { target, file });
    }
    const skill: Skill = {
      name: fmName ?? dirName,
      targets: loadersOfSkill(draft.dir, draft.skillPath),
      dirName,
      dir: draft.dir,
      skillFile: facts.file,
      frontmatter: sf.frontmatter,
      sections: sf.sections,
      declaredStates: declaredStates(sf, config.state_model_aliases),
      loop: loopFacts ? { ...loopFacts.loop!, file: loopFacts.file } : null,
      legacyHandoffs:
        handoffFacts && handoffFacts.handoffs!.length > 0 ? { file: handoffFacts.file, transitions: handoffFacts.handoffs! } : null,
      entries: draft.entries,
      scripts: draft.scripts ? draft.scripts.map((p) => scripts.get(p)!.facts.file) : null,
      links: facts.file.links,
      references,
    };
    if (draft.loopReadError !== undefined) skill.loopReadError = draft.loopReadError;
    if (draft.readmeLinks) skill.readmeLinks = draft.readmeLinks;
    return skill;
  }
  const existingPaths = new Set<string>();
  const outsidePaths = new Set<string>();
  if (config.loop_state_files.length > 0) {
    // looked up only inside the project: a path that climbs out or a link that leads out is not looked for
    const inside = rootOf(root);
    for (const f of config.loop_state_files) {
      const found = inside && confine(f.path, [inside], { directories: true, limit: Number.MAX_SAFE_INTEGER });
      const why = found && 'refused' in found ? found.why : null;
      if (why === 'outside') outsidePaths.add(f.path);
      else if (found && why !== 'missing' && why !== 'loop') existingPaths.add(f.path);
    }
  }
  // which local link destinations of SKILL.md and reference files exist
  const linkTargets = new Set<string>();
  // names compared with the directory listings, never asked of a file system that may ignore case
  const pathsOnDisk = new Map<string, string | null>();
  const listings: Listings = opts.listings ?? new Map();
  const known = opts.placesOnDisk ?? new Map<string, string | null>();
  const onDisk = (place: string) => {
    let found = pathsOnDisk.get(place);
    if (found === undefined) {
      found = known.get(place);
      if (found === undefined) known.set(place, (found = pathOnDisk(root, place, listings, files.dirs)));
      pathsOnDisk.set(place, found);
    }
    return found;
  };
  const checked = new Set<string>();
  /** SKILL.md links (relative, not from the skill directory) that landed nowhere when read, with their places, by skill */
  const unlanded = new Map<(typeof drafts)[number], { link: LocalLink; places: string[] }[]>();
  for (const role of roles) {
    if (role.kind !== 'skill' && role.kind !== 'reference') continue;
    const skillDir = drafts[role.skill]?.dir ?? posix.dirname(role.path);
    for (const link of markdown.get(role.path)?.facts.file.localLinks ?? []) {
      const places = linkPlaces(link.path, link.fromSkillDir === true, role.path, skillDir);
      for (const place of places) {
        if (checked.has(place)) continue;
        checked.add(place);
        // a glob (`references/concepts/*.md`, "use these globs as the catalogue") is fine when it matches
        if (onDisk(place) === place || (place.split('/').some(isGlobSegment) && globMatches(root, place))) linkTargets.add(place);
      }
      const path = places[0]!;
      // a skill reached through a symlinked folder: its links were written from its real place
      if (!places.some((p) => linkTargets.has(p)) && link.path !== '') {
        const base = link.fromSkillDir ? skillDir : posix.dirname(role.path);
        if (existsFromRealPlace(join(root, base), link.path.replace(/\\/gu, '/'))) linkTargets.add(path);
        else if (role.kind === 'skill' && !link.fromSkillDir && !link.path.startsWith('/')) {
          const draft = drafts[role.skill]!;
          unlanded.set(draft, [...(unlanded.get(draft) ?? []), { link, places }]);
        }
      }
    }
  }
  // the missing ones a .gitignore keeps out of the repository on purpose
  const missing = [...checked].filter((place) => !linkTargets.has(place) && !place.split('/').some(isGlobSegment));
  const gitIgnoredTargets = missing.length === 0 ? new Set<string>() : gitIgnoredPaths(root, missing);
  // the missing links of SKILL.md that land from the folder of a repository file the skill names
  const linksForNamedFiles = new Set<string>();
  // … and those of a skill in an agent's folder that land from the project the skill works on: the
  // folder that holds the agent's folder, where the agent runs (held-out round 90)
  const linksFromProject = new Set<string>();
  for (const [draft, links] of unlanded) {
    const nearest = skillsFoldersOf(draft.dir)[0];
    if (nearest === undefined || !isAgentFolder(nearest.place)) continue;
    const base = placeHolder(nearest);
    for (const { link, places } of links) {
      if (places.some((p) => linkTargets.has(p))) continue;
      const place = posix.normalize(posix.join(base, link.path.replace(/\\/gu, '/')));
      if (!place.startsWith('../') && onDisk(place) === place) linksFromProject.add(`${draft.skillPath}:${link.line}:${link.column}`);
    }
  }
  for (const [draft, links] of unlanded) {
    const folders = new Set<string>();
    for (const named of markdown.get(draft.skillPath)?.facts.skill?.namedPaths ?? []) {
      if (named.path.includes('/') && onDisk(named.path) === named.path) folders.add(posix.dirname(named.path));
    }
    for (const { link, places } of links) {
      // (a link of another skill may have found one of its places since, through a symbolic link)
      if (places.some((p) => linkTargets.has(p))) continue;
      const lands = [...folders].some((f) => {
        const place = posix.normalize(posix.join(f, link.path));
        return !place.startsWith('../') && onDisk(place) === place;
      });
      if (lands) linksForNamedFiles.add(`${draft.skillPath}:${link.line}:${link.column}`);
    }
  }
  // the paths SKILL.md names in prose that name one of the skill's own files; one that is not the
  // skill's (a missing file of its folders, a markdown file of no folder of it) is looked for in the
  // collection the skill belongs to (`<plugin>/skills/<skill>/`: the plugin's hooks, a pack's docs/)
  // and from the project's root (sharedPlaces)
  for (const draft of drafts) {
    for (const named of markdown.get(draft.skillPath)?.facts.skill?.namedPaths ?? []) {
      const place = namedPlace(named.path, draft.dir, draft.entries);
      if (place !== null && onDisk(place) !== null) continue;
      if (place === null && !mayBeSharedDocument(named.path)) continue;
      for (const shared of sharedPlaces(draft.dir, named.path)) onDisk(shared);
    }
  }
  return {
    displayRoot,
    root,
    config,
    configPositions: loaded.positions,
    configFile: loaded.file,
    configWarnings: loaded.warnings,
    skillsDir: opts.layout.skillsDirs[0] ?? '',
    skillsDirs: opts.layout.skillsDirs,
    presets: opts.presets,
    skills,
    agents: files.agents,
    manifests: files.manifests,
    problems: files.problems,
    unchecked: opts.layout.unchecked,
    readme: files.hasReadme ? markdown.get('README.md')!.facts.file : null,
    existingPaths,
    outsidePaths,
    linkTargets,
    gitIgnoredTargets,
    linksForNamedFiles,
    linksFromProject,
    pathsOnDisk,
  };
}
