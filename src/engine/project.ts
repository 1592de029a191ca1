/**
 * Reads a project: discovery, the files of every skill, the per-file phase (through a FileRunner:
 * inline, cached or on worker threads), and the Project model built from the extracted facts.
 */
import { join, posix, relative, sep } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { DEFAULT_SKILLS_DIRS, discoverAll, foldersOf, resolveSkillsDirs, skillDirsAnywhere } from '../discover/discover.js';
import { declaredStates, linkPlaces, namedPlace } from '../model/skill.js';
import type { FileKind, FileModel, LoadProblem, Project, ReferencedFile, Skill } from '../model/types.js';
import { isLoopContract } from '../parse/dsl.js';
import { ProjectError } from '../parse/errors.js';
import {
  exists,
  existsFromRealPlace,
  globMatches,
  insideRoot,
  isGlobSegment,
  isDirectory,
  listDir,
  type Listings,
  markdownFilesUnder,
  pathOnDisk,
  readText,
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

interface SkillDraft {
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
}

export async function loadProject(opts: LoadProjectOptions): Promise<LoadedProject> {
  const { root, displayRoot, loaded, runner } = opts;
  const { config } = loaded;
  const plainAgentSkills = opts.presets.includes('agent-skills') && !opts.presets.includes('loop-language');
  const t1 = performance.now();
  const { dirs, skillsDirs } = opts.layout;

  // read every file of every skill and hand it to the per-file phase as it is read (so only a few
  // batches of text are held at a time); outcomes arrive by path
  const problems: LoadProblem[] = [];
  const drafts: SkillDraft[] = [];
  const roles: RoleFile[] = [];
  const markdown = new Map<string, FileOutcome>();
  const scripts = new Map<string, FileOutcome>();
  let readMs = 0;
  const add = async (job: FileJob, skill: number) => {
    roles.push({ path: job.path, kind: job.kind, skill });
    const into = job.kind === 'script' ? scripts : markdown;
    await runner.add(job, (outcome) => into.set(job.path, outcome));
  };
  const overlay = opts.overlay;
  const read = (abs: string) => {
    const text = overlay?.get(relative(root, abs).split(sep).join('/'));
    if (text !== undefined) return { text };
    const r0 = performance.now();
    const r = readText(abs);
    readMs += performance.now() - r0;
    return r;
  };
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
      // checked as a plain Agent Skills collection, a LOOP.md that is no contract is a reference document
      if (!plainAgentSkills || isLoopContract(loopRead.text, config.canonical_loop_sections)) {
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
  const hasReadme = 'text' in readmeRead;
  if (hasReadme) await add({ path: 'README.md', kind: 'readme', text: readmeRead.text }, -1);
  await runner.flush();

  // then the files SKILL.md links to that were not read yet (each once)
  const referencePath = (draft: SkillDraft, target: string) => posix.normalize(`${draft.dir}/${decodeTarget(target)}`);
  if (opts.references) {
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
          await add({ path: rel, kind: 'reference', text: r.text }, index);
        } else {
          missing.add(rel);
        }
      }
    }
    await runner.flush();
  }
  const t3 = performance.now();

  // the model, from the facts alone (a transition's file is its file's path: one string, not a copy per transition)
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
  for (const f of config.loop_state_files) if (exists(join(root, f.path))) existingPaths.add(f.path);
  // which local link destinations of SKILL.md and reference files exist
  const linkTargets = new Set<string>();
  // names compared with the directory listings, never asked of a file system that may ignore case
  const pathsOnDisk = new Map<string, string | null>();
  const listings: Listings = new Map();
  const onDisk = (place: string) => {
    let found = pathsOnDisk.get(place);
    if (found === undefined) pathsOnDisk.set(place, (found = pathOnDisk(root, place, listings)));
    return found;
  };
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
        if (onDisk(place) === place || (place.split('/').some(isGlobSegment) && globMatches(root, place))) linkTargets.add(place);
      }
      const path = places[0]!;
      // a skill reached through a symlinked folder: its links were written from its real place
      if (!places.some((p) => linkTargets.has(p)) && link.path !== '') {
        const base = link.fromSkillDir ? skillDir : posix.dirname(role.path);
        if (existsFromRealPlace(join(root, base), link.path.replace(/\\/gu, '/'))) linkTargets.add(path);
      }
    }
  }
  // the paths SKILL.md names in prose that name one of the skill's own files
  for (const draft of drafts) {
    for (const named of markdown.get(draft.skillPath)?.facts.skill?.namedPaths ?? []) {
      const place = namedPlace(named.path, draft.dir, draft.entries);
      if (place !== null) onDisk(place);
    }
  }
  const project: Project = {
    displayRoot,
    root,
    config,
    configPositions: loaded.positions,
    configFile: loaded.file,
    configWarnings: loaded.warnings,
    skillsDir: skillsDirs[0] ?? '',
    skillsDirs,
    presets: opts.presets,
    skills,
    problems,
    readme: hasReadme ? markdown.get('README.md')!.facts.file : null,
    existingPaths,
    linkTargets,
    pathsOnDisk,
  };
  return { project, markdown, scripts, roles, timing: { read: readMs, files: t3 - t1 - readMs } };
}
