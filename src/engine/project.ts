/**
 * Reads a project: discovery, the files of every skill, the per-file phase (through a FileRunner:
 * inline, cached or on worker threads), and the Project model built from the extracted facts.
 */
import { isAbsolute, join, posix, relative, sep } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { discoverSkillDirs } from '../discover/discover.js';
import { declaredStates } from '../model/skill.js';
import type { FileKind, FileModel, LoadProblem, Project, ReferencedFile, Skill } from '../model/types.js';
import { ProjectError } from '../parse/errors.js';
import { exists, insideRoot, isDirectory, listDir, readText } from '../parse/fs.js';
import type { FileJob, FileOutcome } from './file-phase.js';

/** Runs the per-file phase over a batch of jobs; outcomes in job order. */
export interface FileRunner {
  run(jobs: readonly FileJob[]): Promise<FileOutcome[]>;
}

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
  timing: { discovery: number; read: number; files: number };
}

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
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

export interface LoadProjectOptions {
  root: string;
  displayRoot: string;
  loaded: LoadedConfig;
  /** read the markdown files SKILL.md links to (only when an enabled rule needs them) */
  references: boolean;
  runner: FileRunner;
}

export async function loadProject(opts: LoadProjectOptions): Promise<LoadedProject> {
  const { root, displayRoot, loaded, runner } = opts;
  const { config } = loaded;
  const t0 = performance.now();
  const absSkills = isAbsolute(config.skills_dir) ? config.skills_dir : join(root, config.skills_dir);
  const skillsDir = toPosix(relative(root, absSkills));
  if (!isDirectory(absSkills)) {
    const pos = loaded.valuePositions.get('skills_dir');
    const where = loaded.file && pos ? ` (skills_dir at ${loaded.file}:${pos.line}:${pos.column})` : '';
    throw new ProjectError(`skills directory '${config.skills_dir}' not found in ${displayRoot}${where}`);
  }
  const dirs = discoverSkillDirs(root, skillsDir);
  const t1 = performance.now();

  // read every file of every skill (the reading is cheap; parsing is the per-file phase's)
  const problems: LoadProblem[] = [];
  const drafts: SkillDraft[] = [];
  const jobs: FileJob[] = [];
  const roles: RoleFile[] = [];
  for (const dir of dirs) {
    const absDir = join(root, dir);
    const skillPath = `${dir}/SKILL.md`;
    const read = readText(join(absDir, 'SKILL.md'));
    if ('error' in read) {
      problems.push({ code: 'skill-read-error', file: skillPath, message: `Failed to read ${skillPath}: ${read.error}` });
      continue;
    }
    const index = drafts.length;
    jobs.push({ path: skillPath, kind: 'skill', text: read.text });
    roles.push({ path: skillPath, kind: 'skill', skill: index });
    const draft: SkillDraft = { dir, dirName: dir.split('/').pop()!, skillPath, loopPath: null, handoffsPath: null, entries: [], scripts: null };
    const loopPath = `${dir}/LOOP.md`;
    const loopRead = readText(join(absDir, 'LOOP.md'));
    if ('text' in loopRead) {
      draft.loopPath = loopPath;
      jobs.push({ path: loopPath, kind: 'loop', text: loopRead.text });
      roles.push({ path: loopPath, kind: 'loop', skill: index });
    } else if (!loopRead.missing) {
      draft.loopReadError = loopRead.error;
      problems.push({ code: 'skill-read-error', file: loopPath, message: `Failed to read ${loopPath}: ${loopRead.error}` });
    }
    if (draft.loopPath === null && draft.loopReadError === undefined) {
      const h = readText(join(absDir, 'HANDOFFS.md'));
      if ('text' in h) {
        draft.handoffsPath = `${dir}/HANDOFFS.md`;
        jobs.push({ path: draft.handoffsPath, kind: 'handoffs', text: h.text });
        roles.push({ path: draft.handoffsPath, kind: 'handoffs', skill: index });
      }
    }
    draft.entries = listDir(absDir, root);
    if (isDirectory(join(absDir, 'scripts'))) {
      draft.scripts = [];
      for (const e of listDir(join(absDir, 'scripts'), root)) {
        if (e.kind !== 'file') continue;
        const r = readText(join(absDir, 'scripts', e.name));
        if (!('text' in r) || r.text.length > MAX_SCRIPT_BYTES) continue;
        const path = `${dir}/scripts/${e.name}`;
        draft.scripts.push(path);
        jobs.push({ path, kind: 'script', text: r.text });
        roles.push({ path, kind: 'script', skill: index });
      }
    }
    drafts.push(draft);
  }
  const readmeRead = readText(join(root, 'README.md'));
  const hasReadme = 'text' in readmeRead;
  if (hasReadme) {
    jobs.push({ path: 'README.md', kind: 'readme', text: readmeRead.text });
    roles.push({ path: 'README.md', kind: 'readme', skill: -1 });
  }
  const t2 = performance.now();

  // the per-file phase: contract files, scripts and README first
  const markdown = new Map<string, FileOutcome>();
  const scripts = new Map<string, FileOutcome>();
  const first = await runner.run(jobs);
  jobs.forEach((job, i) => (job.kind === 'script' ? scripts : markdown).set(job.path, first[i]!));

  // then the files SKILL.md links to that were not read yet (each once)
  const referenceJobs: FileJob[] = [];
  const missing = new Set<string>();
  const referencePath = (draft: SkillDraft, target: string) => posix.normalize(`${draft.dir}/${decodeTarget(target)}`);
  if (opts.references) {
    const queued = new Set<string>();
    drafts.forEach((draft, index) => {
      for (const { target } of markdown.get(draft.skillPath)!.facts.file.links) {
        const rel = referencePath(draft, target);
        if (markdown.has(rel) || queued.has(rel) || missing.has(rel)) continue;
        const inside = insideRoot(join(root, rel), root);
        const r = inside === null ? null : readText(inside);
        if (r && 'text' in r) {
          queued.add(rel);
          referenceJobs.push({ path: rel, kind: 'reference', text: r.text });
          roles.push({ path: rel, kind: 'reference', skill: index });
        } else {
          missing.add(rel);
        }
      }
    });
  }
  const second = await runner.run(referenceJobs);
  referenceJobs.forEach((job, i) => markdown.set(job.path, second[i]!));
  const t3 = performance.now();

  // the model, from the facts alone
  const skills: Skill[] = drafts.map((draft) => {
    const facts = markdown.get(draft.skillPath)!.facts;
    const sf = facts.skill!;
    const fmName = sf.frontmatter?.data.name;
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
      legacyHandoffs: handoffFacts && handoffFacts.handoffs!.length > 0 ? { file: handoffFacts.file, transitions: handoffFacts.handoffs! } : null,
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
  const project: Project = {
    displayRoot,
    root,
    config,
    configPositions: loaded.positions,
    configFile: loaded.file,
    configWarnings: loaded.warnings,
    skillsDir,
    skills,
    problems,
    readme: hasReadme ? markdown.get('README.md')!.facts.file : null,
    existingPaths,
  };
  return { project, markdown, scripts, roles, timing: { discovery: t1 - t0, read: t2 - t1, files: t3 - t2 } };
}
