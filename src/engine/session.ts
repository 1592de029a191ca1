/**
 * A project held in memory, for the front ends that live longer than one check (the language
 * server; `watch` and the MCP server can share it): the engine's phases, run again only where a
 * change reaches.
 *
 *   const session = await ProjectSession.open({ root });
 *   session.state.check?.diagnostics;              // the model, the graph and the diagnostics
 *   await session.setText('skills/x/LOOP.md', t);   // an editor's buffer: wins over the disk
 *   await session.setText('skills/x/LOOP.md', null); // the buffer closed: the disk's text again
 *   await session.changed([{ path, type: 'deleted' }]); // what changed on disk
 *   await session.settled();                        // once every change handed in is checked
 *   session.read('skills/x/SKILL.md');              // a file's text as the session reads it
 *
 * Paths are project-relative with `/`. Options are those of a check's per-file phase (a cache file,
 * threads) and a preset. `state.timing` says where the last update's time went.
 * The session keeps every file's outcome of the per-file phase. A changed file that keeps its role
 * is parsed again alone; then the model is rebuilt from the outcomes and the project phase runs
 * again — so a change in one skill shows in the others. A change that can move the project's shape
 * (the configuration, a file created or deleted, a LOOP.md that starts or stops being a contract,
 * new links to reference files) reads the project again, from the outcomes it has where a file's
 * text did not change. Updates are queued and coalesced: while one is being checked, the next
 * changes collect and are checked together.
 *
 * A project that cannot be checked (a broken `.loopkit.yaml`, no skills) is a state, not an
 * exception: `failure` says why, `lastGood` keeps the last check that worked.
 */
import { isAbsolute, join, posix } from 'node:path';
import { CONFIG_FILE, ConfigError } from '../config/errors.js';
import type { LoadedConfig } from '../config/load.js';
import { buildGraph, type StateGraph } from '../graph/graph.js';
import type { FileKind, Project } from '../model/types.js';
import { isLoopContract } from '../parse/dsl.js';
import { ProjectError } from '../parse/errors.js';
import { acceptText, readText, type Listings, type ReadResult } from '../parse/fs.js';
import { contentHash } from './cache.js';
import { UsageError } from './errors.js';
import type { Diagnostic } from './diagnostic.js';
import { processFile, type FileJob, type FileOutcome } from './file-phase.js';
import {
  projectModel,
  readProjectFiles,
  readReferences,
  readsLoop,
  type LoadedProject,
  type LoadProjectOptions,
  type ProjectFiles,
} from './project.js';
import { ruleOrigins, type Rule } from './rule.js';
import {
  planRun,
  projectDirectory,
  ruleIndex,
  runRules,
  type Prepared,
  type ProjectPhaseMemo,
  type RuleRun,
  type WithRules,
} from './run.js';
import type { Read } from './reads.js';
import type { SeverityPlan } from './severity.js';
import { createRunner, type FileRunner, type Runner, type RunnerOptions } from './runner.js';

/** The rules of a project as its configuration names them now, and what worker threads need to load the same. */
export interface LoadedRules {
  ruleSet: readonly Rule[];
  workerData?: unknown;
}

export interface SessionOptions extends RunnerOptions, WithRules {
  /**
   * Load the project's rules again each time the project is read (its plugins, api/engine.ts): a
   * changed `plugins:` takes effect, and one that cannot be loaded is the session's failure (a
   * ConfigError), not a lost project. Without it, `ruleSet` is used throughout.
   */
  loadRules?: () => Promise<LoadedRules>;
  /** the project root: absolute, or as the user typed it */
  root: string;
  /** check with this preset instead of the config's `extends` */
  preset?: string;
  /** the loaders every skill is written for (`--target`), instead of the configured or detected ones */
  targets?: readonly string[];
}

/** One check of the project as the session holds it. */
export interface SessionCheck extends RuleRun {
  /** the rules the session checks with (the core rules and the project's plugins') */
  ruleSet: readonly Rule[];
  loaded: LoadedConfig;
  project: Project;
  graph: StateGraph;
  /** the outcomes of the per-file phase and every file in its role */
  files: LoadedProject;
  presetNote?: string;
  layoutNote?: string;
}

export interface SessionState {
  /** counts the updates the session went through */
  version: number;
  /** the check of the project as it is now; null when it cannot be checked (see failure) */
  check: SessionCheck | null;
  /** why the project cannot be checked now: a broken `.loopkit.yaml` (ConfigError), no skills (ProjectError), … */
  failure: ConfigError | ProjectError | UsageError | null;
  /** the last check that succeeded (the same as check, unless the project cannot be checked now) */
  lastGood: SessionCheck | null;
  /** where the last update's time went, in milliseconds */
  timing?: UpdateTiming;
}

/** Milliseconds of one update, by phase. */
export interface UpdateTiming {
  /** reading the project (when its shape changed): configuration, discovery, the per-file phase */
  read: number;
  /** the per-file phase of the files that changed */
  files: number;
  /** the model from the outcomes, the graph, the project phase */
  model: number;
  graph: number;
  rules: number;
  /** each rule's project part */
  byRule: Record<string, number>;
}

/** A change on disk, project-relative. */
export interface FileChange {
  path: string;
  type: 'created' | 'changed' | 'deleted';
}

/** What the session remembers of a file it handed to the per-file phase. */
interface Memo {
  job: Omit<FileJob, 'text'>;
  hash: string;
  outcome: FileOutcome;
  /** LOOP.md: whether its text reads as a contract (without a config file, that chooses the preset) */
  contract?: boolean;
}

/** Directories whose changes never reach a project (a path, with either separator). */
export const IGNORED_PATH = /(?:^|[\\/])(?:node_modules|\.git)(?:[\\/]|$)/u;

/** Names of the files whose text can give a skill its place or role. */
const SKILL_FILES = new Set(['SKILL.md', 'LOOP.md', 'HANDOFFS.md']);

/** Could the file be an agent definition or a plugin manifest the project reads (discover/agents.ts)? */
function mayBeAgentFile(path: string, named: readonly string[]): boolean {
  const dir = posix.dirname(path);
  if (posix.basename(dir) === '.claude-plugin' && /^(?:plugin|marketplace)\.json$/u.test(posix.basename(path))) return true;
  if (!/\.md$/iu.test(path)) return false;
  const folder = posix.basename(dir);
  return (
    folder === 'agents' ||
    folder === 'agent' ||
    named.some((n) => {
      const place = n.replace(/^\.\//u, '').replace(/\/+$/u, '');
      return path === place || dir === place;
    })
  );
}

export class ProjectSession {
  /** the absolute project root */
  readonly root: string;
  private readonly options: SessionOptions;
  private index: ReadonlyMap<string, Rule>;
  /** texts the editor holds, by project-relative path */
  private readonly overlay = new Map<string, string>();
  private readonly memo = new Map<string, Memo>();
  /** the rules, as handed in or as loadRules last gave them, by code and alias */
  private ruleSet: readonly Rule[];
  private workerData: unknown;
  /**
   * What changed since the last check (engine/reads.ts), and each rule's project-part findings then:
   * the project phase re-runs only the rules whose inputs changed. null: everything may have (the
   * project was read again).
   */
  private changes: { reads: Set<Read>; kinds: Set<FileKind>; skills: Set<number> | null } | null = null;
  private projectFindings = new Map<string, Diagnostic[]>();
  /** referrers(), built once per reading of the project (which skills link which files changes only then) */
  private referrersOf: Map<string, number[]> | null = null;
  /** the shape of the project as last read (null: not read, or it could not be) */
  private shape: {
    prepared: Prepared;
    opts: LoadProjectOptions;
    files: ProjectFiles;
    plan: SeverityPlan;
    enabled: Rule[];
    roles: Map<string, ProjectFiles['roles'][number]>;
  } | null = null;
  private current: SessionState = { version: 0, check: null, failure: null, lastGood: null };
  /** directory listings, as the model read them (forgotten whenever the project is read again) */
  private readonly listings: Listings = new Map();
  /** the places looked up in those listings, and what was found (forgotten with them) */
  private readonly placesOnDisk = new Map<string, string | null>();
  private dirty = new Set<string>();
  private reread = true;
  private pending: Promise<SessionState> | null = null;
  private timing: UpdateTiming = { read: 0, files: 0, model: 0, graph: 0, rules: 0, byRule: {} };

  private constructor(options: SessionOptions) {
    this.options = options;
    this.ruleSet = options.ruleSet;
    this.index = ruleIndex(options.ruleSet);
    this.root = projectDirectory(options.root);
  }

  /** Read and check a project. Throws a ProjectError only when the root is not a directory. */
  static async open(options: SessionOptions): Promise<ProjectSession> {
    const session = new ProjectSession(options);
    await session.settled();
    return session;
  }

  get state(): SessionState {
    return this.current;
  }

  /** The state once every change handed in so far is checked. */
  settled(): Promise<SessionState> {
    return this.pending ?? (this.work() ? this.schedule() : Promise.resolve(this.current));
  }

  /** Set the text an editor holds for a file (project-relative); null gives the file on disk back. */
  setText(path: string, text: string | null): Promise<SessionState> {
    if (text === null) this.overlay.delete(path);
    else if (this.overlay.get(path) === text) return this.settled();
    else this.overlay.set(path, text);
    this.dirty.add(path);
    return this.schedule();
  }

  /** Files created, changed or deleted on disk. A deleted file's editor text is dropped too. */
  changed(changes: readonly FileChange[]): Promise<SessionState> {
    for (const c of changes) {
      if (IGNORED_PATH.test(c.path)) continue;
      if (c.type === 'changed') {
        if (!this.overlay.has(c.path)) this.dirty.add(c.path);
        continue;
      }
      if (c.type === 'deleted') this.overlay.delete(c.path);
      this.reread = true;
    }
    return this.schedule();
  }

  /** The text of a file as the session reads it: the editor's, else the disk's. */
  read(path: string): ReadResult {
    const text = this.overlay.get(path);
    if (text !== undefined) return acceptText(text);
    // a project-relative path: never one that climbs out, never through a link that leads out
    if (isAbsolute(path) || path.split('/').includes('..')) return { error: 'It is outside the project' };
    return readText(join(this.root, path), this.root, true);
  }

  private work(): boolean {
    return this.reread || this.dirty.size > 0;
  }

  private schedule(): Promise<SessionState> {
    this.pending ??= (async () => {
      try {
        // let the changes handed in by the same turn of the event loop join this update
        await new Promise<void>((resolve) => setImmediate(resolve));
        while (this.work()) await this.step();
        return this.current;
      } finally {
        this.pending = null;
      }
    })();
    return this.pending;
  }

  private async step(): Promise<void> {
    this.timing = { read: 0, files: 0, model: 0, graph: 0, rules: 0, byRule: {} };
    const paths = [...this.dirty];
    this.dirty.clear();
    let reread = this.reread || this.shape === null;
    this.reread = false;
    let recheck = false;
    if (!reread) {
      const t0 = performance.now();
      for (const path of paths) {
        const r = this.refresh(path);
        if (r === 'reread') reread = true;
        else if (r === 'changed') recheck = true;
      }
      this.timing.files = performance.now() - t0;
    }
    if (reread) await this.readProject();
    else if (recheck) this.check();
    else return;
    this.current = { ...this.current, version: this.current.version + 1, timing: this.timing };
  }

  /**
   * A file's text changed: parse it again when it keeps its role ('changed'), say when the project
   * must be read again ('reread'), or that the change does not reach the project ('none').
   */
  private refresh(path: string): 'changed' | 'reread' | 'none' {
    const shape = this.shape!;
    // the configuration, and the ignore files discovery reads
    if (path === CONFIG_FILE || posix.basename(path) === '.gitignore') return 'reread';
    // agent files and plugin manifests are read with the project (discover/agents.ts), not per file
    if (mayBeAgentFile(path, shape.prepared.loaded.config.agents)) return 'reread';
    const role = shape.roles.get(path);
    const name = posix.basename(path);
    if (!role)
      return SKILL_FILES.has(name) || path === 'README.md' || posix.basename(posix.dirname(path)) === 'scripts' ? 'reread' : 'none';
    const memo = this.memo.get(path);
    const r = this.read(path);
    if (!memo || !('text' in r)) return 'reread';
    const { text } = r;
    const hash = contentHash(text);
    if (hash === memo.hash) return 'none';
    const { presets, loaded } = shape.prepared;
    if (role.kind === 'loop') {
      if (!readsLoop(presets, loaded.config, text)) return 'reread';
      // without a config file, the preset is chosen by whether the project has a LOOP.md contract
      const contract = isLoopContract(text, loaded.config.canonical_loop_sections);
      if (loaded.file === null && this.options.preset === undefined && contract !== memo.contract) return 'reread';
    }
    const outcome = processFile({ ...memo.job, text }, this.ruleSet);
    delete outcome.ms;
    this.noteChange(path, role.kind, role.skill, memo.outcome, outcome);
    if (role.kind === 'skill' && shape.opts.references && !sameLinks(memo.outcome, outcome)) return 'reread';
    this.memo.set(path, remembered(memo.job, hash, outcome, text, loaded.config.canonical_loop_sections));
    (role.kind === 'script' ? shape.files.scripts : shape.files.markdown).set(path, outcome);
    return 'changed';
  }

  /** The skills (indexes) whose references hold each file, as the project was last read. */
  private referrers(): ReadonlyMap<string, readonly number[]> {
    if (this.referrersOf) return this.referrersOf;
    const out = new Map<string, number[]>();
    (this.current.check?.project.skills ?? []).forEach((s, i) => {
      for (const ref of s.references.values()) {
        if (ref.file === null) continue;
        const list = out.get(ref.file.path);
        if (list) list.push(i);
        else out.set(ref.file.path, [i]);
      }
    });
    return (this.referrersOf = out);
  }

  /** What an edit of a file of this kind changed, for the project phase (engine/reads.ts). */
  private noteChange(path: string, kind: FileKind, skill: number, before: FileOutcome, after: FileOutcome): void {
    if (!this.changes) return;
    const { reads, kinds } = this.changes;
    kinds.add(kind);
    if (skill < 0) this.changes.skills = null;
    else this.changes.skills?.add(skill);
    // the skills that link the file (another skill's SKILL.md, a shared reference) read it too
    for (const i of this.referrers().get(path) ?? []) this.changes.skills?.add(i);
    if (kind === 'skill') {
      // the body, and the paths it names (looked up on disk); the frontmatter and the names in the graph when it changed
      reads.add('body').add('files');
      const fm = (o: FileOutcome) => o.facts.skill?.frontmatter ?? null;
      if (JSON.stringify(fm(before)) !== JSON.stringify(fm(after))) reads.add('frontmatter');
      // the graph names each transition's skill
      const name = (o: FileOutcome) => JSON.stringify([fm(o) === null, fm(o)?.entries.find((e) => e.key === 'name')?.value]);
      if (name(before) !== name(after)) reads.add('graph');
    } else if (kind === 'loop' || kind === 'handoffs') reads.add('loop').add('graph');
    else if (kind === 'reference') reads.add('references').add('files');
    else reads.add('files');
  }

  /** Read the project: configuration, layout, every file (from the outcomes kept where its text did not change). */
  private async readProject(): Promise<void> {
    this.changes = null;
    // which skills link which files changes only when the project is read again (a changed link reads it again)
    this.referrersOf = null;
    if (this.options.loadRules) {
      try {
        const loaded = await this.options.loadRules();
        // other rules: the outcomes kept of each file hold the findings of the rules before
        if (ruleOrigins(loaded.ruleSet) !== ruleOrigins(this.ruleSet)) this.memo.clear();
        this.ruleSet = loaded.ruleSet;
        this.index = ruleIndex(loaded.ruleSet);
        this.workerData = loaded.workerData;
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        this.shape = null;
        this.current = { ...this.current, check: null, failure: e };
        return;
      }
    }
    const runner = createRunner(
      this.workerData === undefined ? this.options : { ...this.options, workerData: this.workerData },
      this.ruleSet,
    );
    const t0 = performance.now();
    this.listings.clear();
    this.placesOnDisk.clear();
    try {
      const display = this.options.root;
      const { prepared, plan, enabled } = await planRun(
        this.root,
        display,
        this.withOverlayConfig(runner),
        this.options,
        this.ruleSet,
        this.index,
      );
      const { loaded, layout, presets, targets } = prepared;
      const opts: LoadProjectOptions = {
        root: this.root,
        displayRoot: display,
        loaded,
        layout,
        presets,
        ...(targets ? { targets } : {}),
        references: enabled.some((r) => r.meta.references === true),
        runner: this.remembering(runner, loaded.config.canonical_loop_sections),
        overlay: this.overlay,
        listings: this.listings,
        placesOnDisk: this.placesOnDisk,
        skillModels: new Map(),
      };
      const files = await readProjectFiles(opts);
      if (opts.references) await readReferences(opts, files);
      const roles = new Map(files.roles.map((r) => [r.path, r]));
      for (const path of [...this.memo.keys()]) if (!roles.has(path)) this.memo.delete(path);
      this.shape = { prepared, opts, files, plan, enabled, roles };
      this.timing.read = performance.now() - t0;
      this.check();
    } catch (e) {
      if (!(e instanceof ConfigError || e instanceof ProjectError || e instanceof UsageError)) throw e;
      this.shape = null;
      this.current = { ...this.current, check: null, failure: e };
    } finally {
      await runner.close();
    }
  }

  /** The project phase over the outcomes as they are: model, graph, rules. */
  private check(): void {
    const { prepared, opts, files, plan, enabled } = this.shape!;
    const t0 = performance.now();
    const project = projectModel(opts, files);
    const t1 = performance.now();
    const graph = buildGraph(project);
    const t2 = performance.now();
    const loadedProject: LoadedProject = {
      project,
      markdown: files.markdown,
      scripts: files.scripts,
      roles: files.roles,
      timing: { read: 0, files: 0 },
    };
    const keep = new Map<string, Diagnostic[]>();
    const memo: ProjectPhaseMemo | undefined = this.changes
      ? {
          changed: this.changes.reads,
          changedKinds: this.changes.kinds,
          previous: this.projectFindings,
          changedSkills: this.changes.skills,
        }
      : undefined;
    const run = runRules(loadedProject, graph, enabled, plan, this.index, this.timing.byRule, memo, keep);
    this.projectFindings = keep;
    this.changes = { reads: new Set(), kinds: new Set(), skills: new Set() };
    Object.assign(this.timing, { model: t1 - t0, graph: t2 - t1, rules: performance.now() - t2 });
    const check: SessionCheck = { ...run, ruleSet: this.ruleSet, loaded: prepared.loaded, project, graph, files: loadedProject };
    if (prepared.presetNote !== undefined) check.presetNote = prepared.presetNote;
    if (prepared.layoutNote !== undefined) check.layoutNote = prepared.layoutNote;
    this.current = { ...this.current, check, failure: null, lastGood: check };
  }

  /** The runner, reading `.loopkit.yaml` from the editor when it holds it. */
  private withOverlayConfig(runner: Runner): Runner {
    return {
      ...runner,
      config: (source) => {
        const text = this.overlay.get(CONFIG_FILE);
        return runner.config(text === undefined ? source : { file: CONFIG_FILE, text });
      },
    };
  }

  /** A file runner that serves a file's outcome from memory while its text (and siblings) did not change. */
  private remembering(inner: FileRunner, sections: readonly string[]): FileRunner {
    const runner: FileRunner = {
      add: async (job, done, stamp) => {
        const hash = contentHash(job.text);
        const memo = this.memo.get(job.path);
        if (memo && memo.hash === hash && memo.job.kind === job.kind && sameList(memo.job.siblings, job.siblings)) {
          done(memo.outcome);
          return;
        }
        const { text, ...rest } = job;
        await inner.add(
          job,
          (outcome) => {
            this.memo.set(job.path, remembered(rest, hash, outcome, text, sections));
            done(outcome);
          },
          stamp,
        );
      },
      flush: () => inner.flush(),
    };
    if (inner.expect) runner.expect = (n) => inner.expect!(n);
    return runner;
  }
}

function remembered(job: Memo['job'], hash: string, outcome: FileOutcome, text: string, sections: readonly string[]): Memo {
  return job.kind === 'loop' ? { job, hash, outcome, contract: isLoopContract(text, sections) } : { job, hash, outcome };
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => x === b[i]);
}

/** Do two outcomes of a SKILL.md link the same files? */
function sameLinks(a: FileOutcome, b: FileOutcome): boolean {
  return sameList(
    a.facts.file.links.map((l) => l.target),
    b.facts.file.links.map((l) => l.target),
  );
}
