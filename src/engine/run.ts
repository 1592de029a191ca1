/**
 * The engine: config → discovery → per-file phase (cached, on worker threads when it pays) → project
 * model → graph → every enabled rule → sorted diagnostics.
 * No printing, no process exit. Throws ConfigError / ProjectError for input that cannot be checked.
 */
import { join, resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { patternProblem } from '../config/patterns.js';
import { someOf } from '../util/text.js';
import { readConfigFile } from '../config/read.js';
import { withSharedConfigs } from '../config/shared.js';
import { applyPresets, defaultPreset, PRESET_NAMES, skillsEverywhere } from '../config/presets.js';
import type { Config } from '../config/schema.js';
import { globsFor } from '../discover/discover.js';
import { buildGraph, type StateGraph } from '../graph/graph.js';
import { markdownFiles } from '../model/files.js';
import { agentFileLoaders } from '../model/agents.js';
import { skillHolding } from '../model/skill-dir.js';
import { isTarget, loaderList, loaderSentence, TARGETS, type Loader, type SkillTargets, type Target } from '../model/targets.js';
import type { FileKind, Project, Skill } from '../model/types.js';
import { ProjectError } from '../parse/errors.js';
import { isLoopContract } from '../parse/dsl.js';
import { exists, isDirectory, readText } from '../parse/fs.js';
import { closest } from '../util/closest.js';
import { UsageError } from './errors.js';
import { compareDiagnostics, interpolate, type Diagnostic, type Related, type Severity } from './diagnostic.js';
import type { FileOutcome, RawDiagnostic } from './file-phase.js';
import { loadProject, projectLayout, type Layout, type LoadedProject, type RoleFile } from './project.js';
import type { Place, Rule, RuleMeta } from './rule.js';
import { createRunner, type FileRunner, type Runner, type RunnerOptions, type RunnerStats } from './runner.js';
import { severityPlan, type SeverityPlan, type TargetedSeverity } from './severity.js';
import { isSuppressed, suppressedRanges, type SuppressedRange } from './suppress.js';
import { checkingReads, guardedModel, type Read } from './reads.js';

/** The rules the engine runs, handed to it: loopkit's core rules (api/core-rules.ts) — the engine imports no rule. */
export interface WithRules {
  ruleSet: readonly Rule[];
}

export interface LintOptions extends RunnerOptions, WithRules {
  /** the project root as the user typed it */
  root: string;
  /** run only these rules (codes or aliases) */
  only?: readonly string[];
  /** check with this preset instead of the config's `extends` (or the one chosen by the project's shape) */
  preset?: string;
  /** file texts to check instead of what is on disk (project-relative path → text), e.g. fixes not written yet */
  overlay?: ReadonlyMap<string, string>;
  /** more ignore patterns (gitignore syntax, relative to the project root), as `--ignore-pattern` gives them */
  ignorePatterns?: readonly string[];
  /** the loaders every skill is written for (`--target`), instead of the configured or detected ones */
  targets?: readonly string[];
}

export interface RuleStat {
  code: string;
  category: string;
  errors: number;
  warnings: number;
  info: number;
}

/** Milliseconds spent in each phase of a run. */
export interface Timing {
  config: number;
  discovery: number;
  read: number;
  /** the per-file phase: cache lookups, parsing and extraction (on worker threads when used) */
  files: number;
  graph: number;
  rules: number;
  /** milliseconds of each rule: its project part, and (CPU, over threads) its file part */
  byRule: Record<string, number>;
  /** how the per-file phase went: files from the cache, parsed, threads used */
  runner: RunnerStats;
}

export interface LintResult {
  project: Project;
  graph: StateGraph;
  diagnostics: Diagnostic[];
  /** diagnostics silenced by inline suppression comments */
  suppressed: number;
  /** problems a baseline recorded, not reported (set when a baseline was applied) */
  baselined?: number;
  verifications: number;
  errors: number;
  warnings: number;
  info: number;
  /** per enabled rule, in registry order */
  ruleStats: RuleStat[];
  /** metadata of the rules that ran, in registry order */
  rules: RuleMeta[];
  timing: Timing;
  /** set when the preset was chosen by the project's shape rather than named (a line for the user) */
  presetNote?: string;
  /** set when discovery has something to say: SKILL.md files inside other skills, projects of their own below this one (lines for the user) */
  layoutNote?: string;
  /** what discovery found: the skills, and what it left out and why (ignored folders, other projects, SKILL.md files inside skills) */
  layout: Layout;
}

/** code or alias → rule */
export function ruleIndex(list: readonly Rule[]): Map<string, Rule> {
  const m = new Map<string, Rule>();
  for (const r of list) {
    m.set(r.meta.code, r);
    for (const a of r.meta.aliases ?? []) m.set(a, r);
  }
  return m;
}

export interface Model {
  loaded: LoadedConfig;
  project: Project;
  graph: StateGraph;
  /** set when the preset was chosen by the project's shape rather than named (a line for the user) */
  presetNote?: string;
}

/** A project's configuration and layout, ready to read: the config file with the presets applied. */
export interface Prepared {
  loaded: LoadedConfig;
  layout: Layout;
  presets: string[];
  /** loopkit chose the preset itself (no .loopkit.yaml, no --preset): no heuristic is an error */
  auto: boolean;
  presetNote?: string;
  layoutNote?: string;
  /** the targets the command line names (`--target`), checked */
  targets?: Target[];
  /** milliseconds: reading the config, finding the skills */
  ms: { config: number; discovery: number };
}

export async function prepare(
  root: string,
  displayRoot: string,
  runner: Runner,
  options: { preset?: string | undefined; ignorePatterns?: readonly string[] | undefined; targets?: readonly string[] | undefined },
): Promise<Prepared> {
  const { preset } = options;
  if (preset !== undefined && !PRESET_NAMES.includes(preset)) {
    const guess = closest(preset, PRESET_NAMES);
    throw new UsageError(`unknown preset '${preset}'${guess ? `; did you mean '${guess}'?` : ''} (presets: ${PRESET_NAMES.join(', ')})`);
  }
  for (const p of options.ignorePatterns ?? []) {
    const problem = patternProblem(p);
    if (problem !== null)
      throw new UsageError(`--ignore-pattern: ${problem === 'must not be empty' ? 'the pattern must not be empty' : problem}`);
  }
  const targets = commandLineTargets(options.targets);
  const t0 = performance.now();
  // the config file, with the shareable configs it extends merged in
  const shared = withSharedConfigs(root, await runner.config(readConfigFile(root)));
  const file = shared.loaded;
  const t1 = performance.now();
  // the presets a config file chooses (without one, the project's shape chooses, below)
  let presets: string[] | undefined =
    preset !== undefined
      ? [preset]
      : shared.presets.length > 0
        ? [...shared.presets]
        : file.file !== null
          ? [defaultPreset(true, false)]
          : undefined;
  // every SKILL.md is a skill without a config file, and under a preset that says so where the config writes no skills_dir
  const written = (key: string) => file.positions.has(key) || shared.written.has(key);
  const everywhere = file.file === null || (!written('skills_dir') && skillsEverywhere(presets!));
  await globsFor(file.config.skills_dir);
  const layout = projectLayout(root, displayRoot, file, {
    everywhere,
    ...(options.ignorePatterns ? { ignorePatterns: options.ignorePatterns } : {}),
  });
  const ms = { config: t1 - t0, discovery: performance.now() - t1 };
  let presetNote: string | undefined;
  if (presets === undefined) {
    // a LOOP.md counts when it is a contract: a skill's notes named LOOP.md do not make a Loop Language project
    const hasLoop = layout.dirs.some((d) => {
      const loop = readText(join(root, d, 'LOOP.md'), root);
      return 'text' in loop && isLoopContract(loop.text, file.config.canonical_loop_sections);
    });
    presets = [defaultPreset(false, hasLoop)];
    presetNote = autoPresetNote(presets[0]!);
  }
  const loaded: LoadedConfig = { ...file, config: applyPresets(file.config, presets, written) };
  const out: Prepared = { loaded, layout, presets, auto: preset === undefined && file.file === null, ms };
  if (presetNote !== undefined) out.presetNote = presetNote;
  if (targets.length > 0) out.targets = targets;
  const notes: string[] = [];
  if (layout.rootIndex) {
    notes.push(
      'the SKILL.md at the project root has no frontmatter: read as an index of the collection, not as a skill (a skill starts with ---, name: and description:).',
    );
  }
  if (layout.indexes.length > 0) notes.push(indexNote(layout.indexes));
  if (layout.packageDocs.length > 0) notes.push(packageDocNote(layout.packageDocs));
  if (layout.nested.length > 0) notes.push(nestedNote(layout.nested));
  if (layout.fragments.length > 0) notes.push(fragmentNote(layout.fragments));
  if (layout.subprojects.length > 0) notes.push(subprojectNote(layout.subprojects));
  // one line each (the CLI prefixes the first with `loopkit: `)
  if (notes.length > 0) out.layoutNote = notes.join('\nloopkit: ');
  return out;
}

/** `--target` values (each may be a comma list), checked: an unknown one is a UsageError with a suggestion. */
function commandLineTargets(given: readonly string[] | undefined): Target[] {
  const out: Target[] = [];
  for (const name of (given ?? []).flatMap((t) => t.split(',')).map((t) => t.trim())) {
    if (name === '') continue;
    if (!isTarget(name)) {
      const guess = closest(name, TARGETS);
      throw new UsageError(`unknown target '${name}'${guess ? `; did you mean '${guess}'?` : ''} (targets: ${TARGETS.join(', ')})`);
    }
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** The line that says which preset loopkit chose for a project without a .loopkit.yaml, and what that means for errors. */
function autoPresetNote(preset: string): string {
  const certain = 'only what loopkit is certain of is an error (a guess from prose is a warning at most)';
  if (preset === 'agent-skills') {
    return (
      `no .loopkit.yaml and no LOOP.md contract: checked as a plain Agent Skills collection (preset agent-skills); ${certain}. ` +
      'To check Loop Language contracts, add `extends: loop-language` to a .loopkit.yaml, or pass --preset loop-language.'
    );
  }
  return (
    `no .loopkit.yaml: checked as a Loop Language project for its LOOP.md contracts (preset loop-language); ${certain}. ` +
    "For the Loop Language's own severities, add a .loopkit.yaml (`loopkit init`) or pass --preset loop-language."
  );
}

/** The line that says which SKILL.md files inside other skills were not checked as skills of their own. */
function nestedNote(nested: readonly string[]): string {
  const n = nested.length;
  return (
    `${n} SKILL.md ${n === 1 ? 'file inside another skill was' : 'files inside other skills were'} not checked as ${n === 1 ? 'a skill' : 'skills'} of ${n === 1 ? 'its' : 'their'} own: ${someOf(nested)}. ` +
    `A skill's sub-folders are part of it; to check ${n === 1 ? 'it as a skill, name its folder' : 'them as skills, name their folders'} in skills_dir.`
  );
}

/** The line that says which SKILL.md files without frontmatter were read as pieces of a skill of their name, not as skills. */
function fragmentNote(fragments: readonly string[]): string {
  const n = fragments.length;
  return (
    `${n} SKILL.md ${n === 1 ? 'file has' : 'files have'} no frontmatter and ${n === 1 ? 'is named' : 'are named'} as another skill that has one, so ${n === 1 ? 'it is a piece' : 'they are pieces'} of ${n === 1 ? 'that skill' : 'those skills'} (an override or a variant merged at build time), not checked as ${n === 1 ? 'a skill' : 'skills'}: ${someOf(fragments)}. ` +
    `To check ${n === 1 ? 'it as a skill, give it' : 'them as skills, give them'} a frontmatter.`
  );
}

/** The line that says which SKILL.md files without frontmatter were read as indexes of the skills below them, not as skills. */
function indexNote(indexes: readonly string[]): string {
  const n = indexes.length;
  return (
    `${n} SKILL.md ${n === 1 ? 'file has' : 'files have'} no frontmatter and ${n === 1 ? 'holds' : 'hold'} skills below ${n === 1 ? 'it' : 'them'}: read as ${n === 1 ? 'an index' : 'indexes'} of ${n === 1 ? 'them' : 'those skills'} (a guide above a plugin's skills), not checked as ${n === 1 ? 'a skill' : 'skills'}: ${someOf(indexes)}. ` +
    `To check ${n === 1 ? 'it as a skill, give it' : 'them as skills, give them'} a frontmatter.`
  );
}

/** The line that says which SKILL.md files without frontmatter in code packages' folders were read as documents of those packages, not as skills. */
function packageDocNote(dirs: readonly string[]): string {
  const n = dirs.length;
  return (
    `${n} SKILL.md ${n === 1 ? 'file has' : 'files have'} no frontmatter and ${n === 1 ? 'sits' : 'sit'} in a code package's folder (beside its go.mod, package.json …), in no skills folder: read as ${n === 1 ? 'a document' : 'documents'} of ${n === 1 ? 'that package' : 'those packages'}, not checked as ${n === 1 ? 'a skill' : 'skills'}: ${someOf(dirs)}. ` +
    `To check ${n === 1 ? 'it as a skill, give it' : 'them as skills, give them'} a frontmatter.`
  );
}

/** The line that says which folders are projects of their own, not checked with this one. */
function subprojectNote(subprojects: readonly string[]): string {
  const n = subprojects.length;
  return (
    `${n} ${n === 1 ? 'folder has a .loopkit.yaml of its own and is a project' : 'folders have a .loopkit.yaml of their own and are projects'} of ${n === 1 ? 'its' : 'their'} own, not checked with this one: ${someOf(subprojects)}. ` +
    `Check ${n === 1 ? 'it' : 'each'} with \`loopkit check ${n === 1 ? subprojects[0] : '<folder>'}\`.`
  );
}

/** The absolute root of a project the user named, or a ProjectError. */
export function projectDirectory(rootAsTyped: string): string {
  const root = resolve(rootAsTyped);
  if (!exists(root)) throw new ProjectError(`path not found: ${rootAsTyped}`);
  if (!isDirectory(root)) throw new ProjectError(`not a directory: ${rootAsTyped} (loopkit checks a project directory)`);
  return root;
}

/** Read a project (the root as the user typed it) into the contract model and its graph. */
export async function loadModel(
  rootAsTyped: string,
  options: RunnerOptions & WithRules & { preset?: string; ignorePatterns?: readonly string[]; targets?: readonly string[] },
): Promise<Model> {
  const root = projectDirectory(rootAsTyped);
  // the model needs the files' facts, not the rules' findings: their file parts (a tokenizer among
  // them) run only when the outcomes go into a cache, which must hold them whole
  const runner = createRunner(options, options.cacheFile ? options.ruleSet : []);
  try {
    const { loaded, layout, presets, presetNote, targets } = await prepare(root, rootAsTyped, runner, options);
    const { project } = await loadProject({
      root,
      displayRoot: rootAsTyped,
      loaded,
      layout,
      presets,
      references: false,
      runner,
      ...(targets ? { targets } : {}),
    });
    const model: Model = { loaded, project, graph: buildGraph(project) };
    if (presetNote !== undefined) model.presetNote = presetNote;
    return model;
  } finally {
    await runner.close();
  }
}

/** What applies to one file of a project (`--print-config`): the presets, the skill's loaders and every rule's severity there. */
export interface FileConfig {
  /** project-relative */
  file: string;
  /** the skill the file belongs to (null: none) */
  skill: string | null;
  presets: readonly string[];
  /** the skill's loaders and why (null: the file belongs to no skill) */
  targets: { targets: readonly Loader[]; alsoReadBy: readonly Loader[]; why: string } | null;
  /** every rule's severity in the file, by code, sorted */
  rules: Record<string, string>;
  /** the other settings, presets applied */
  settings: Omit<Config, 'rules' | 'overrides'>;
}

/** What applies to the project-relative `file` of the project at `rootAsTyped` (`loopkit check --print-config <file>`). */
export async function fileConfig(
  rootAsTyped: string,
  file: string,
  options: RunnerOptions & WithRules & { preset?: string; ignorePatterns?: readonly string[]; targets?: readonly string[] },
): Promise<FileConfig> {
  const root = projectDirectory(rootAsTyped);
  const runner = createRunner(options, []);
  try {
    const { prepared, plan } = await planRun(root, rootAsTyped, runner, options, options.ruleSet, ruleIndex(options.ruleSet));
    const { loaded, layout, presets, targets } = prepared;
    const { project } = await loadProject({
      root,
      displayRoot: rootAsTyped,
      loaded,
      layout,
      presets,
      references: false,
      runner,
      ...(targets ? { targets } : {}),
    });
    const skill = skillHolding(project.skills, file);
    const loaders = agentFileLoaders(project.agents, project.manifests, file) ?? skill?.targets ?? null;
    const severities = Object.fromEntries(options.ruleSet.map((r) => [r.meta.code, plan.at(r, file, loaders)]));
    const { rules: _rules, overrides: _overrides, ...settings } = project.config;
    return {
      file,
      skill: skill?.name ?? null,
      presets,
      targets: loaders && { targets: loaders.targets, alsoReadBy: loaders.alsoReadBy, why: loaders.why },
      rules: severities,
      settings,
    };
  } finally {
    await runner.close();
  }
}

/** A run, planned: the configuration and layout, the severities, and the rules that run (those of `selected` on somewhere). */
export interface RunPlan {
  prepared: Prepared;
  plan: SeverityPlan;
  enabled: Rule[];
}

/** Prepare a project (config, presets, layout) and decide every rule's severity: what `lint` and a session both do first. */
export async function planRun(
  root: string,
  displayRoot: string,
  runner: Runner,
  options: { preset?: string | undefined; ignorePatterns?: readonly string[] | undefined; targets?: readonly string[] | undefined },
  ruleSet: readonly Rule[],
  index: ReadonlyMap<string, Rule>,
  selected: readonly Rule[] = ruleSet,
): Promise<RunPlan> {
  const prepared = await prepare(root, displayRoot, runner, options);
  const { loaded, presets, auto } = prepared;
  const plan = severityPlan(ruleSet, index, loaded, { presets, auto });
  return { prepared, plan, enabled: selected.filter((rule) => plan.runs(rule)) };
}

export async function lint(options: LintOptions): Promise<LintResult> {
  const index = ruleIndex(options.ruleSet);
  const selected = selectedRules(options.only, index, options.ruleSet);
  const root = projectDirectory(options.root);
  const runner = createRunner({ projectRoot: root, ...options }, options.ruleSet);
  const { prepared, plan, enabled, loadedProject } = await readForRules(root, options, runner, index, selected);
  const { project } = loadedProject;
  const t2 = performance.now();
  const graph = buildGraph(project);
  const t3 = performance.now();
  const byRule: Record<string, number> = {};
  const result = runRules(loadedProject, graph, enabled, plan, index, byRule);
  const t4 = performance.now();
  const runnerStats = runner.stats();
  for (const [code, ms] of Object.entries(runnerStats.byRule)) byRule[code] = (byRule[code] ?? 0) + ms;
  const out: LintResult = {
    ...result,
    project,
    graph,
    layout: prepared.layout,
    timing: {
      config: prepared.ms.config,
      discovery: prepared.ms.discovery,
      read: loadedProject.timing.read,
      files: loadedProject.timing.files,
      graph: t3 - t2,
      rules: t4 - t3,
      byRule,
      runner: runnerStats,
    },
  };
  if (prepared.presetNote !== undefined) out.presetNote = prepared.presetNote;
  if (prepared.layoutNote !== undefined) out.layoutNote = prepared.layoutNote;
  return out;
}

/** The rules `--rule` names (codes or aliases), every rule without it; an unknown name is a UsageError. */
function selectedRules(only: readonly string[] | undefined, index: ReadonlyMap<string, Rule>, ruleSet: readonly Rule[]): readonly Rule[] {
  if (!only || only.length === 0) return ruleSet;
  const chosen = only.map((name) => {
    const r = index.get(name);
    if (!r) {
      const guess = closest(name, [...index.keys()]);
      throw new UsageError(`unknown rule '${name}'${guess ? `; did you mean '${guess}'?` : ''}`);
    }
    return r;
  });
  return ruleSet.filter((r) => chosen.includes(r));
}

/** Plan the run and read the project through the per-file phase (the runner is closed after: its cache saved). */
async function readForRules(
  root: string,
  options: LintOptions,
  runner: Runner,
  index: ReadonlyMap<string, Rule>,
  selected: readonly Rule[],
): Promise<RunPlan & { loadedProject: LoadedProject }> {
  try {
    const planned = await planRun(root, options.root, runner, options, options.ruleSet, index, selected);
    const { loaded, layout, presets, targets } = planned.prepared;
    const loadedProject = await loadProject({
      root,
      displayRoot: options.root,
      loaded,
      layout,
      presets,
      ...(targets ? { targets } : {}),
      references: planned.enabled.some((r) => r.meta.references === true),
      runner,
      ...(options.overlay ? { overlay: options.overlay } : {}),
    });
    return { ...planned, loadedProject };
  } finally {
    await runner.close();
  }
}

export type RuleRun = Omit<LintResult, 'project' | 'graph' | 'timing' | 'presetNote' | 'layoutNote' | 'layout'>;

/**
 * What a session knows of the run before this one (engine/session.ts): what changed since, and each
 * rule's project-part findings then. A rule whose declared reads (engine/reads.ts) did not change,
 * and whose file part reads no kind of file that changed, is not run again.
 */
export interface ProjectPhaseMemo {
  changed: ReadonlySet<Read>;
  /** the kinds of the files whose per-file outcomes changed (a file part's data for the project part) */
  changedKinds: ReadonlySet<FileKind>;
  /** each rule's project-part findings in that run, as made (runRules' `keep`) */
  previous: ReadonlyMap<string, readonly Diagnostic[]>;
  /** the skills (indexes into Project.skills) whose files changed; null: files of no skill changed too */
  changedSkills: ReadonlySet<number> | null;
}

/** For a local rule after an edit of some skills: those skills, and the findings of the others to keep. */
function localRun(rule: Rule, memo: ProjectPhaseMemo, project: Project): { skills: Skill[]; kept: readonly Diagnostic[] } | null {
  const previous = memo.previous.get(rule.meta.code);
  if (!rule.meta.local || memo.changedSkills === null || previous === undefined) return null;
  const changed = memo.changedSkills;
  const skills = project.skills.filter((_, i) => changed.has(i));
  const dirs = new Set(skills.map((s) => s.dir));
  return { skills, kept: previous.filter((d) => !dirs.has(skillHolding(project.skills, d.file)?.dir ?? '\u0000')) };
}

/** May the rule's project part be answered from the memo? */
function unchanged(rule: Rule, memo: ProjectPhaseMemo): boolean {
  const reads = rule.meta.reads;
  if (reads === undefined || !memo.previous.has(rule.meta.code)) return false;
  if (reads.some((r) => memo.changed.has(r))) return false;
  return !rule.file || !rule.file.kinds.some((k) => memo.changedKinds.has(k));
}

/**
 * Every enabled rule over the model: the findings of its file part, then its project part. With a
 * memo, a rule whose inputs did not change is answered from it; `keep` receives each rule's
 * project-part findings for the next run's memo.
 */
export function runRules(
  loaded: LoadedProject,
  graph: StateGraph,
  enabled: readonly Rule[],
  plan: SeverityPlan,
  index: ReadonlyMap<string, Rule>,
  byRule: Record<string, number>,
  memo?: ProjectPhaseMemo,
  keep?: Map<string, Diagnostic[]>,
): RuleRun {
  const { project } = loaded;
  const checkReads = checkingReads();
  const knownCodes = new Set(index.keys());
  const suppressions = suppressionsByFile(project, index);
  const diagnostics: Diagnostic[] = [];
  const ruleStats: RuleStat[] = [];
  const ran: RuleMeta[] = [];
  let verifications = 0;
  let suppressed = 0;
  const skillName = (i: number) => (i >= 0 ? project.skills[i]!.name : undefined);
  // the loaders of the skill a file belongs to (engine/severity.ts, step 4)
  const loadersOf = (file: string) =>
    agentFileLoaders(project.agents, project.manifests, file) ?? skillHolding(project.skills, file)?.targets ?? null;
  const found = fileFindings(loaded);
  for (const rule of enabled) {
    verifications += rule.meta.scope === 'project' ? 1 : project.skills.length;
    const stat: RuleStat = { code: rule.meta.code, category: rule.meta.category, errors: 0, warnings: 0, info: 0 };
    ruleStats.push(stat);
    ran.push(rule.meta);
    const code = rule.meta.code;
    const emitted: Diagnostic[] = [];
    const make = (
      messageId: string,
      data: Record<string, string | number> | undefined,
      at: Place,
      skill: string | undefined,
      related: Related[] | undefined,
      states?: readonly string[],
    ) => {
      const tpl = rule.meta.messages[messageId];
      if (!tpl) throw new Error(`rule ${code} reported unknown messageId '${messageId}'`);
      const values = data ?? {};
      const d: Diagnostic = {
        code,
        // set below, from the file it is in (overrides:)
        severity: 'error',
        message: interpolate(tpl.message, values),
        help: tpl.help ? interpolate(tpl.help, values) : '',
        file: at.file,
        line: at.line ?? null,
        column: at.line == null ? null : (at.column ?? 1),
        messageId,
      };
      if (data !== undefined) d.data = data;
      if (at.endLine != null) d.endLine = at.endLine;
      if (at.endColumn != null) d.endColumn = at.endColumn;
      if (skill !== undefined) d.skill = skill;
      if (related && related.length > 0) d.related = related;
      if (states && states.length > 0) d.states = states;
      return d;
    };
    // the problems its file part found, in the files it reads in their role
    const part = rule.file;
    for (const { role, raw } of (part && found.get(code)) || []) {
      // not in a file where the rule is off (overrides:), a crash of its file part neither
      if (!part!.kinds.includes(role.kind) || plan.at(rule, raw.at.file, loadersOf(raw.at.file)) === 'off') continue;
      emitted.push(
        raw.messageId === '$crash' ? crashed(rule.meta, raw) : make(raw.messageId, raw.data, raw.at, skillName(role.skill), raw.related),
      );
    }
    const c0 = performance.now();
    const fromCheck = emitted.length;
    const reuse = rule.check !== undefined && memo !== undefined && unchanged(rule, memo);
    const local = rule.check && memo && !reuse ? localRun(rule, memo, project) : null;
    if (reuse) {
      // its inputs did not change since the run memo.previous holds: its findings then are its findings now
      for (const d of memo!.previous.get(code)!) emitted.push({ ...d });
    } else if (rule.check) {
      // a local rule: the findings of the skills that did not change are kept, the others' found again
      if (local) for (const d of local.kept) emitted.push({ ...d });
      const model = local ? { ...project, skills: local.skills } : project;
      const seen = checkReads && rule.meta.reads ? guardedModel(code, rule.meta.reads, model, graph) : { project: model, graph };
      try {
        rule.check({
          project: seen.project,
          graph: seen.graph,
          config: project.config,
          knownCodes,
          fileData: (path: string) => fileData(loaded, path, code),
          report: (input) => {
            const d = make(input.messageId, input.data, input.at, input.skill, input.related, input.states);
            if (input.element !== undefined) d.element = input.element;
            emitted.push(d);
          },
        });
      } catch (e) {
        emitted.push(
          crashed(rule.meta, { code, messageId: '$crash', data: { error: (e as Error).message }, at: { file: project.skillsDir } }),
        );
      }
    }
    byRule[code] = performance.now() - c0;
    // the project part's findings as made, before severities and suppressions change them (ProjectPhaseMemo):
    // they change top-level fields only (severity, message, help), so a shallow copy keeps them
    if (keep && rule.check)
      keep.set(
        code,
        emitted.slice(fromCheck).map((d) => ({ ...d })),
      );
    for (const d of emitted) {
      if (d.code === code) {
        const loaders = loadersOf(d.file);
        const verdict = plan.verdict(rule, d.file, loaders);
        if (verdict.severity === 'off') continue;
        d.severity = verdict.severity;
        if (loaders !== null) withLoaders(d, rule.meta, verdict, loaders);
      }
      if (isSuppressed(d, suppressions)) {
        suppressed++;
        continue;
      }
      diagnostics.push(d);
      if (d.severity === 'error') stat.errors++;
      else if (d.severity === 'warning') stat.warnings++;
      else stat.info++;
    }
  }
  diagnostics.sort(compareDiagnostics);
  const count = (s: Severity) => diagnostics.filter((d) => d.severity === s).length;
  return {
    diagnostics,
    suppressed,
    verifications,
    errors: count('error'),
    warnings: count('warning'),
    info: count('info'),
    ruleStats,
    rules: ran,
  };
}

/**
 * A finding whose severity the skill's loaders decided says so: a finding only loaders that also
 * read the skill fail is `not portable` to them, and one of a portable collection that only the
 * specification asks for says so; one a loader the skill is written for fails names
 * that loader (not for a portable collection, whose loader is the specification every rule page cites).
 */
function withLoaders(d: Diagnostic, meta: RuleMeta, verdict: TargetedSeverity, loaders: SkillTargets): void {
  const table = meta.loaders;
  if (table === undefined || table === 'every') return;
  const add = (text: string) => (d.help = d.help === '' ? text : `${d.help} ${text}`);
  if (
    verdict.notPortable !== undefined &&
    verdict.notPortable.length === 1 &&
    verdict.notPortable[0] === 'spec' &&
    loaders.targets.includes('spec')
  ) {
    d.message = `not portable: ${d.message}`;
    add(
      loaders.alsoReadBy.length > 0
        ? // a portable collection: only the specification asks for it, every loader that reads the skill accepts it
          'Only the Agent Skills specification (and its validator, skills-ref) asks for it; the loaders that read the skill accept it.'
        : // another agent's folder: loaders differ on it, and what that agent does is not known
          `The Agent Skills specification rejects it; the loaders loopkit knows differ on it, and what the agent of the skill's folder does is not known (${loaders.why}).`,
    );
  } else if (verdict.notPortable !== undefined) {
    d.message = `not portable: ${d.message}`;
    const what = loaders.always === true ? 'The file' : 'The skill';
    const sentence = loaderSentence(table, verdict.notPortable);
    add(
      loaders.targets.length === 0
        ? // a part of another skill (asPart): written for no loader, the why says whose part it is
          `${sentence} ${loaders.why.charAt(0).toUpperCase()}${loaders.why.slice(1)}.`
        : `${sentence} ${what} is written for ${loaderList(loaders.targets)} (${loaders.why})${
            d.severity === 'info' && meta.subject === 'name'
              ? `, and its name is the author's choice for ${loaderList(loaders.targets)}`
              : ''
          }.`,
    );
  } else if (verdict.failing !== undefined && !(loaders.targets.length === 1 && loaders.targets[0] === 'spec')) {
    add(loaderSentence(table, verdict.failing));
  }
}

/** What the rules' file parts found, by rule code, with the file each was found in (in the files' order). */
function fileFindings(loaded: LoadedProject): Map<string, { role: RoleFile; raw: RawDiagnostic }[]> {
  const out = new Map<string, { role: RoleFile; raw: RawDiagnostic }[]>();
  for (const role of loaded.roles) {
    const outcome = (role.kind === 'script' ? loaded.scripts : loaded.markdown).get(role.path);
    for (const raw of outcome?.diagnostics ?? []) {
      const list = out.get(raw.code);
      if (list) list.push({ role, raw });
      else out.set(raw.code, [{ role, raw }]);
    }
  }
  return out;
}

function fileData(loaded: LoadedProject, path: string, code: string): unknown {
  const outcome: FileOutcome | undefined = loaded.markdown.get(path) ?? loaded.scripts.get(path);
  return outcome?.data[code];
}

/** A rule that threw: an error of the run (the rest of the run goes on), naming whose bug it is. */
function crashed(meta: RuleMeta, raw: RawDiagnostic): Diagnostic {
  return {
    code: 'internal-error',
    severity: 'error',
    message: `Rule ${meta.code} crashed: ${raw.data?.error ?? 'unknown error'}`,
    help:
      meta.plugin !== undefined
        ? `This is a bug in the plugin ${meta.plugin}; report it to its authors with the input that caused it (or turn the rule off in .loopkit.yaml).`
        : 'This is a bug in loopkit; please report it with the input that caused it.',
    file: raw.at.file,
    line: null,
    column: null,
  };
}

/** Every markdown file's suppressed line ranges, by file, with code aliases resolved to codes. */
function suppressionsByFile(project: Project, index: ReadonlyMap<string, Rule>): Map<string, SuppressedRange[]> {
  const out = new Map<string, SuppressedRange[]>();
  for (const f of markdownFiles(project)) {
    if (f.suppressions.length === 0) continue;
    out.set(
      f.path,
      suppressedRanges(f.suppressions, f.lines, (c) => index.get(c)?.meta.code ?? c),
    );
  }
  return out;
}

export { UsageError };
export type { Config, FileKind, FileRunner };
