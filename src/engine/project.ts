/**
 * Reads a project: discovery, the files of every skill, the per-file phase (through a FileRunner:
 * inline, cached or on worker threads), and the Project model built from the extracted facts.
 */
import { join, posix, relative, sep } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { DEFAULT_SKILLS_DIRS, discoverAll, foldersOf, resolveSkillsDirs, skillDirsAnywhere } from '../discover/discover.js';
import { declaredStates, linkPlaces } from '../model/skill.js';
import type { FileKind, FileModel, LoadProblem, Project, ReferencedFile, Skill } from '../model/types.js';
import { isLoopContract } from '../parse/dsl.js';
import { ProjectError } from '../parse/errors.js';
import {
  acceptText,
  exists,
  existsFromRealPlace,
  globMatches,
  insideRoot,
  isGlobSegment,
  isDirectory,
  listDir,
  markdownFilesUnder,
  readText,
  type ReadResult,
} from '../parse/fs.js';
import type { FileJob, FileOutcome } from './file-phase.js';
import type { FileRunner } from './runner.js';

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
}

/** Where a project's skills are: its skills directories and the skill directories in them. */
export interface Layout {
  /** project-relative skills directories ('' = the root), in setting order */
  skillsDirs: string[];
  /** project-relative skill directories, sorted */
  dirs: string[];
  /**
   * skill directories found outside the skills directories, which are not checked (only when the
   * config does not write `skills_dir` and a common layout was used), sorted
   */
  unchecked?: string[];
  /**
   * directories with a SKILL.md inside a checked skill (its sub-folders are part of it, not skills
   * of their own), sorted; only when the config does not write `skills_dir`
   */
  nested?: string[];
}

/** How deep the fallback looks for skills when no common layout exists (skill directories, in folders). */
const FALLBACK_DEPTH = 6;

/** The layout, with the SKILL.md files inside its skills that are not checked on their own (`nested`). */
function withNested(layout: Layout, anywhere: readonly string[]): Layout {
  const checked = new Set(layout.dirs);
  // a directory is nested when one of its ancestors is a checked skill
  const nested = anywhere.filter((d) => {
    for (let i = d.lastIndexOf('/'); i > 0; i = d.lastIndexOf('/', i - 1)) if (checked.has(d.slice(0, i))) return true;
    return false;
  });
  return nested.length > 0 ? { ...layout, nested } : layout;
}

/**
 * The skills directories of a project — as `skills_dir` names them, or, when the config does not
 * write `skills_dir`, every common layout that exists — and the skills in them. A named directory
 * that does not exist, or no skills directory at all, is a ProjectError (exit 2).
 */
export function projectLayout(root: string, displayRoot: string, loaded: LoadedConfig): Layout {
  const written = loaded.positions.has('skills_dir');
  const resolved = resolveSkillsDirs(root, written ? loaded.config.skills_dir : DEFAULT_SKILLS_DIRS);
  const { missing } = resolved;
  const found = discoverAll(root, resolved.dirs);
  // a common layout counts only when it holds skills (a `skills/` folder of loose notes is not one)
  const dirs = written ? resolved.dirs : resolved.dirs.filter((d) => found.some((s) => s.startsWith(`${d}/`)));
  if (written && missing.length > 0) {
    const i = loaded.config.skills_dir.indexOf(missing[0]!);
    const pos = loaded.valuePositions.get(loaded.config.skills_dir.length > 1 ? `skills_dir.${i}` : 'skills_dir');
    const where = loaded.file && pos ? ` (skills_dir at ${loaded.file}:${pos.line}:${pos.column})` : '';
    throw new ProjectError(`skills directory '${missing[0]}' not found in ${displayRoot}${where}`);
  }
  if (!written && dirs.length === 0) {
    // no common layout: skills kept at the top of the repository (`<skill>/SKILL.md`, or in category folders)
    const atRoot = discoverAll(root, ['']);
    // deeper layouts: marketplaces of products and plugins (`<product>/<plugin>/skills/<skill>/`),
    // one folder of skills per agent (`agents/<agent>/<skill>/`)
    // (one search ten levels deep; skills are looked for six levels down, the rest only named)
    const anywhere = skillDirsAnywhere(root, 10);
    const folders = foldersOf(anywhere.filter((d) => d.split('/').length <= FALLBACK_DEPTH));
    const deep = discoverAll(root, folders);
    // skills at the top and in categories of any depth (`frontend/ui/<skill>/`): one skills directory, the root
    if (atRoot.length > 0) return withNested({ skillsDirs: [''], dirs: [...new Set([...atRoot, ...deep])].sort() }, anywhere);
    if (deep.length > 0)
      return withNested({ skillsDirs: folders.filter((d) => deep.some((s) => s.startsWith(`${d}/`))), dirs: deep }, anywhere);
  }
  if (dirs.length === 0) {
    const looked = (written ? loaded.config.skills_dir : DEFAULT_SKILLS_DIRS).map((d) => `${d.replace(/\/+$/u, '')}/`).join(', ');
    throw new ProjectError(
      written
        ? `no directory matches skills_dir (${looked}) in ${displayRoot}`
        : `no skills found in ${displayRoot} (looked in ${looked} for <skill>/SKILL.md at the top and below); set skills_dir in ${loaded.file ?? '.loopkit.yaml'}`,
    );
  }
  if (written) return { skillsDirs: dirs, dirs: found };
  // skills elsewhere (`external_plugins/*/skills/`): not checked, but the user is told
  const checked = new Set(found);
  // deeper than the fallback looks: an archive of old skills is not checked, but named
  const anywhere = skillDirsAnywhere(root, 10);
  const unchecked = discoverAll(root, foldersOf(anywhere)).filter(
    (d) => !checked.has(d) && !found.some((f) => d.startsWith(`${f}/`)) && !dirs.some((s) => d === s || d.startsWith(`${s}/`)),
  );
  const layout: Layout = unchecked.length > 0 ? { skillsDirs: dirs, dirs: found, unchecked } : { skillsDirs: dirs, dirs: found };
  return withNested(layout, anywhere);
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
  /** whether a path exists (default: ask the file system; a long-lived caller may remember the answers) */
  exists?: (abs: string) => boolean;
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
}

/**
 * Does the project read this LOOP.md as the skill's contract? Checked as a plain Agent Skills
 * collection, a LOOP.md that is no contract is a reference document.
 */
export function readsLoop(presets: readonly string[], config: LoadedConfig['config'], text: string): boolean {
  const plainAgentSkills = presets.includes('agent-skills') && !presets.includes('loop-language');
  return !plainAgentSkills || isLoopContract(text, config.canonical_loop_sections);
}

/** Reads files of the project (the overlay's text first), counting the time spent on the disk. */
function fileReader(opts: LoadProjectOptions, files: ProjectFiles): (abs: string) => ReadResult {
  const { root, overlay } = opts;
  return (abs) => {
    const text = overlay?.get(relative(root, abs).split(sep).join('/'));
    if (text !== undefined) return acceptText(text);
    const r0 = performance.now();
    const r = readText(abs);
    files.readMs += performance.now() - r0;
    return r;
  };
}

/** Hand a file in its role to the per-file phase; its outcome arrives by path. */
function addFile(opts: LoadProjectOptions, files: ProjectFiles, job: FileJob, skill: number): Promise<void> {
  files.roles.push({ path: job.path, kind: job.kind, skill });
  const into = job.kind === 'script' ? files.scripts : files.markdown;
  return opts.runner.add(job, (outcome) => into.set(job.path, outcome));
}

/**
 * The read phase: every file of every skill (SKILL.md, LOOP.md or HANDOFFS.md, scripts) and the
 * project README, each handed to the per-file phase as it is read (so only a few batches of text
 * are held at a time).
 */
export async function readProjectFiles(opts: LoadProjectOptions): Promise<ProjectFiles> {
  const { root, loaded, runner } = opts;
  const { dirs } = opts.layout;
  const files: ProjectFiles = { drafts: [], roles: [], problems: [], markdown: new Map(), scripts: new Map(), hasReadme: false, readMs: 0 };
  const { drafts, problems } = files;
  const read = fileReader(opts, files);
  const add = (job: FileJob, skill: number) => addFile(opts, files, job, skill);
  runner.expect?.(dirs.length);
  for (const dir of dirs) {
    const absDir = join(root, dir);
    const skillPath = `${dir}/SKILL.md`;
    const skillRead = read(join(absDir, 'SKILL.md'));
    if ('error' in skillRead) {
      problems.push({ code: 'skill-read-error', file: skillPath, message: `Failed to read ${skillPath}: ${skillRead.error}` });
      continue;
    }
    const index = drafts.length;
    const entries = listDir(absDir, root);
    const draft: SkillDraft = {
      dir,
      dirName: dir.split('/').pop()!,
      skillPath,
      loopPath: null,
      handoffsPath: null,
      entries,
      scripts: null,
    };
    drafts.push(draft);
    // the markdown files next to SKILL.md and in its sub-folders (`references/x.md`)
    const siblings = markdownFilesUnder(absDir, root, 2);
    await add({ path: skillPath, kind: 'skill', text: skillRead.text, siblings }, index);
    const loopPath = `${dir}/LOOP.md`;
    const loopRead = read(join(absDir, 'LOOP.md'));
    if ('text' in loopRead) {
      if (readsLoop(opts.presets, loaded.config, loopRead.text)) {
        draft.loopPath = loopPath;
        await add({ path: loopPath, kind: 'loop', text: loopRead.text }, index);
      }
    } else if (!loopRead.missing) {
      draft.loopReadError = loopRead.error;
      problems.push({ code: 'skill-read-error', file: loopPath, message: `Failed to read ${loopPath}: ${loopRead.error}` });
    }
    if (draft.loopPath === null && draft.loopReadError === undefined) {
      const h = read(join(absDir, 'HANDOFFS.md'));
      if ('text' in h) {
        draft.handoffsPath = `${dir}/HANDOFFS.md`;
        await add({ path: draft.handoffsPath, kind: 'handoffs', text: h.text }, index);
      }
    }
    if (isDirectory(join(absDir, 'scripts'))) {
      draft.scripts = [];
      for (const e of listDir(join(absDir, 'scripts'), root)) {
        if (e.kind !== 'file') continue;
        const r = read(join(absDir, 'scripts', e.name));
        if (!('text' in r) || r.text.length > MAX_SCRIPT_BYTES) continue;
        const path = `${dir}/scripts/${e.name}`;
        draft.scripts.push(path);
        await add({ path, kind: 'script', text: r.text }, index);
      }
    }
  }
  const readmeRead = read(join(root, 'README.md'));
  files.hasReadme = 'text' in readmeRead;
  if ('text' in readmeRead) await add({ path: 'README.md', kind: 'readme', text: readmeRead.text }, -1);
  await runner.flush();
  return files;
}

/** Where a link of a skill's SKILL.md leads, project-relative. */
function referencePath(draft: SkillDraft, target: string): string {
  return posix.normalize(`${draft.dir}/${decodeTarget(target)}`);
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
      const r = inside === null ? null : read(inside);
      if (r && 'text' in r) {
        queued.add(rel);
        await addFile(opts, files, { path: rel, kind: 'reference', text: r.text }, index);
      } else {
        missing.add(rel);
      }
    }
  }
  await opts.runner.flush();
}

/** The model phase: the Project, from the outcomes of the per-file phase alone (and which linked paths exist). */
export function projectModel(opts: LoadProjectOptions, files: ProjectFiles): Project {
  const { root, displayRoot, loaded } = opts;
  const { config } = loaded;
  const { drafts, roles, markdown, scripts } = files;
  const there = opts.exists ?? exists;
  // a transition's file is its file's path: one string, not a copy per transition
  for (const outcome of markdown.values()) {
    for (const t of outcome.facts.loop?.transitions ?? outcome.facts.handoffs ?? []) (t as { file: string }).file = outcome.facts.file.path;
  }
  const skills: Skill[] = drafts.map((draft) => {
    const facts = markdown.get(draft.skillPath)!.facts;
    const sf = facts.skill!;
    const fmName = sf.frontmatter?.entries.find((e) => e.key === 'name')?.value;
    const loopFacts = draft.loopPath ? markdown.get(draft.loopPath)!.facts : null;
    const handoffFacts = draft.handoffsPath ? markdown.get(draft.handoffsPath)!.facts : null;
    const references = new Map<string, ReferencedFile>();
    for (const { target } of facts.file.links) {
      if (references.has(target)) continue;
      const file: FileModel | null = opts.references ? (markdown.get(referencePath(draft, target))?.facts.file ?? null) : null;
      references.set(target, { target, file });
    }
    const skill: Skill = {
      name: typeof fmName === 'string' && fmName.trim() !== '' ? fmName.trim() : draft.dirName,
      dirName: draft.dirName,
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
    return skill;
  });
  const existingPaths = new Set<string>();
  for (const f of config.loop_state_files) if (there(join(root, f.path))) existingPaths.add(f.path);
  // which local link destinations of SKILL.md and reference files exist
  const linkTargets = new Set<string>();
  const checked = new Set<string>();
  for (const role of roles) {
    if (role.kind !== 'skill' && role.kind !== 'reference') continue;
    const skillDir = drafts[role.skill]?.dir ?? posix.dirname(role.path);
    for (const link of markdown.get(role.path)?.facts.file.localLinks ?? []) {
      const places = linkPlaces(link.path, link.fromSkillDir === true, role.path, skillDir);
      for (const place of places) {
        if (checked.has(place)) continue;
        checked.add(place);
        // a glob (`references/concepts/*.md`, "use these globs as the catalogue") is fine when it matches
        if (there(join(root, place)) || (place.split('/').some(isGlobSegment) && globMatches(root, place))) linkTargets.add(place);
      }
      const path = places[0]!;
      // a skill reached through a symlinked folder: its links were written from its real place
      if (!places.some((p) => linkTargets.has(p)) && link.path !== '') {
        const base = link.fromSkillDir ? skillDir : posix.dirname(role.path);
        if (existsFromRealPlace(join(root, base), link.path.replace(/\\/gu, '/'))) linkTargets.add(path);
      }
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
    problems: files.problems,
    readme: files.hasReadme ? markdown.get('README.md')!.facts.file : null,
    existingPaths,
    linkTargets,
  };
}
