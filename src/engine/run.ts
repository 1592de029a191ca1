/**
 * The engine: config → discovery → per-file phase (cached, on worker threads when it pays) → project
 * model → graph → every enabled rule → sorted diagnostics.
 * No printing, no process exit. Throws ConfigError / ProjectError for input that cannot be checked.
 */
import { join, posix, resolve } from 'node:path';
import { ConfigError } from '../config/errors.js';
import type { LoadedConfig } from '../config/load.js';
import { readConfigFile } from '../config/read.js';
import { applyPresets, defaultPreset, PRESET_NAMES } from '../config/presets.js';
import type { Config, SeveritySetting } from '../config/schema.js';
import { buildGraph, type StateGraph } from '../graph/graph.js';
import { markdownFiles } from '../model/files.js';
import type { FileKind, Project } from '../model/types.js';
import { ProjectError } from '../parse/errors.js';
import { isLoopContract } from '../parse/dsl.js';
import { exists, isDirectory, readText } from '../parse/fs.js';
import { rules } from '../rules/index.js';
import { closest } from '../util/closest.js';
import { UsageError } from './errors.js';
import { compareDiagnostics, interpolate, type Diagnostic, type Related, type Severity } from './diagnostic.js';
import type { FileOutcome, RawDiagnostic } from './file-phase.js';
import { loadProject, projectLayout, type Layout, type LoadedProject } from './project.js';
import type { Place, Rule, RuleMeta } from './rule.js';
import { createRunner, type FileRunner, type Runner, type RunnerOptions, type RunnerStats } from './runner.js';
import { isSuppressed, suppressedRanges, type SuppressedRange } from './suppress.js';

export interface LintOptions extends RunnerOptions {
  /** the project root as the user typed it */
  root: string;
  /** run only these rules (codes or aliases) */
  only?: readonly string[];
  /** check with this preset instead of the config's `extends` (or the one chosen by the project's shape) */
  preset?: string;
  /** file texts to check instead of what is on disk (project-relative path → text), e.g. fixes not written yet */
  overlay?: ReadonlyMap<string, string>;
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
  /** set when skills were found outside the skills directories and not checked (a line for the user) */
  layoutNote?: string;
}

/** code or alias → rule */
export function ruleIndex(list: readonly Rule[] = rules): Map<string, Rule> {
  const m = new Map<string, Rule>();
  for (const r of list) {
    m.set(r.meta.code, r);
    for (const a of r.meta.aliases ?? []) m.set(a, r);
  }
  return m;
}

export function resolveSeverities(index: ReadonlyMap<string, Rule>, loaded: LoadedConfig): Map<Rule, Severity | 'off'> {
  const out = new Map<Rule, Severity | 'off'>();
  const problems: ConfigError['issues'][number][] = [];
  for (const [name, setting] of Object.entries(loaded.config.rules)) {
    const rule = index.get(name);
    if (!rule) {
      const pos = loaded.positions.get(`rules.${name}`);
      const guess = closest(name, [...index.keys()]);
      problems.push({
        line: pos?.line ?? null,
        column: pos?.column ?? null,
        field: `rules.${name}`,
        detail: `unknown rule '${name}'${guess ? `; did you mean '${guess}'?` : ''}`,
      });
      continue;
    }
    out.set(rule, normaliseSetting(setting));
  }
  if (problems.length > 0) throw new ConfigError(loaded.file ?? '.loopkit.yaml', problems);
  return out;
}

function normaliseSetting(s: SeveritySetting): Severity | 'off' {
  return s === 'warn' ? 'warning' : s;
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
  presetNote?: string;
  layoutNote?: string;
  /** milliseconds: reading the config, finding the skills */
  ms: { config: number; discovery: number };
}

export async function prepare(root: string, displayRoot: string, runner: Runner, preset: string | undefined): Promise<Prepared> {
  if (preset !== undefined && !PRESET_NAMES.includes(preset)) {
    const guess = closest(preset, PRESET_NAMES);
    throw new UsageError(`unknown preset '${preset}'${guess ? `; did you mean '${guess}'?` : ''} (presets: ${PRESET_NAMES.join(', ')})`);
  }
  const t0 = performance.now();
  const file = await runner.config(readConfigFile(root));
  const t1 = performance.now();
  const layout = projectLayout(root, displayRoot, file);
  const ms = { config: t1 - t0, discovery: performance.now() - t1 };
  let presets: string[];
  let presetNote: string | undefined;
  if (preset !== undefined) presets = [preset];
  else if (file.config.extends.length > 0) presets = [...file.config.extends];
  else {
    // a LOOP.md counts when it is a contract: a skill's notes named LOOP.md do not make a Loop Language project
    // (only asked without a config file, which chooses loop-language by itself)
    const hasLoop =
      file.file === null &&
      layout.dirs.some((d) => {
        const loop = readText(join(root, d, 'LOOP.md'));
        return 'text' in loop && isLoopContract(loop.text, file.config.canonical_loop_sections);
      });
    presets = [defaultPreset(file.file !== null, hasLoop)];
    if (presets[0] === 'agent-skills') {
      presetNote =
        'no .loopkit.yaml and no LOOP.md contract: checked as a plain Agent Skills collection (preset agent-skills). ' +
        'To check Loop Language contracts, add `extends: loop-language` to a .loopkit.yaml, or pass --preset loop-language.';
    }
  }
  const written = (key: string) => file.positions.has(key);
  const loaded: LoadedConfig = { ...file, config: applyPresets(file.config, presets, written) };
  const out: Prepared = { loaded, layout, presets, ms };
  if (presetNote !== undefined) out.presetNote = presetNote;
  const notes: string[] = [];
  if (layout.unchecked) notes.push(uncheckedNote(layout.unchecked, file.file, presetNote !== undefined));
  if (layout.nested) notes.push(nestedNote(layout.nested));
  // one line each (the CLI prefixes the first with `loopkit: `)
  if (notes.length > 0) out.layoutNote = notes.join('\nloopkit: ');
  return out;
}

/** The line that says which skills were found outside the skills directories and not checked. */
function uncheckedNote(unchecked: readonly string[], configFile: string | null, agentSkillsByDefault: boolean): string {
  const shown = unchecked.slice(0, 3).join(', ');
  const more = unchecked.length > 3 ? ` and ${unchecked.length - 3} more` : '';
  const n = unchecked.length;
  const folders = [...new Set(unchecked.map((d) => `${posix.dirname(d)}/`))];
  return (
    `${n} ${n === 1 ? 'skill' : 'skills'} outside the usual skills directories ${n === 1 ? 'was' : 'were'} not checked: ${shown}${more}. ` +
    `To check ${n === 1 ? 'it' : 'them'}, add ${folders.length > 1 ? 'their folders' : n === 1 ? 'its folder' : 'their folder'} (${folders.slice(0, 3).join(', ')}${folders.length > 3 ? ', …' : ''}) ` +
    `to skills_dir in ${configFile ?? '.loopkit.yaml'}` +
    // a new .loopkit.yaml without `extends` would switch the project to the loop-language preset
    (agentSkillsByDefault && configFile === null ? ', with `extends: agent-skills` to keep this preset.' : '.')
  );
}

/** The line that says which SKILL.md files inside other skills were not checked as skills of their own. */
function nestedNote(nested: readonly string[]): string {
  const n = nested.length;
  const shown = nested.slice(0, 3).join(', ');
  const more = n > 3 ? ` and ${n - 3} more` : '';
  return (
    `${n} SKILL.md ${n === 1 ? 'file inside another skill was' : 'files inside other skills were'} not checked as ${n === 1 ? 'a skill' : 'skills'} of ${n === 1 ? 'its' : 'their'} own: ${shown}${more}. ` +
    `A skill's sub-folders are part of it; to check ${n === 1 ? 'it as a skill, name its folder' : 'them as skills, name their folders'} in skills_dir.`
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
export async function loadModel(rootAsTyped: string, options: RunnerOptions & { preset?: string } = {}): Promise<Model> {
  const root = projectDirectory(rootAsTyped);
  const runner = createRunner(options, rules);
  try {
    const { loaded, layout, presets, presetNote } = await prepare(root, rootAsTyped, runner, options.preset);
    const { project } = await loadProject({ root, displayRoot: rootAsTyped, loaded, layout, presets, references: false, runner });
    const model: Model = { loaded, project, graph: buildGraph(project) };
    if (presetNote !== undefined) model.presetNote = presetNote;
    return model;
  } finally {
    await runner.close();
  }
}

export async function lint(options: LintOptions): Promise<LintResult> {
  const index = ruleIndex();
  let selected: readonly Rule[] = rules;
  let enabled: { rule: Rule; severity: Severity }[];
  if (options.only && options.only.length > 0) {
    const chosen = options.only.map((name) => {
      const r = index.get(name);
      if (!r) {
        const guess = closest(name, [...index.keys()]);
        throw new UsageError(`unknown rule '${name}'${guess ? `; did you mean '${guess}'?` : ''}`);
      }
      return r;
    });
    selected = rules.filter((r) => chosen.includes(r));
  }

  const root = projectDirectory(options.root);
  const runner = createRunner(options, rules);
  let loadedProject: LoadedProject;
  let prepared: Prepared;
  try {
    prepared = await prepare(root, options.root, runner, options.preset);
    const { loaded, layout, presets } = prepared;
    const overrides = resolveSeverities(index, loaded);
    enabled = selected
      .map((rule) => ({ rule, severity: overrides.get(rule) ?? rule.meta.defaultSeverity }))
      .filter((r): r is { rule: Rule; severity: Severity } => r.severity !== 'off');
    loadedProject = await loadProject({
      root,
      displayRoot: options.root,
      loaded,
      layout,
      presets,
      references: enabled.some((r) => r.rule.meta.references === true),
      runner,
      ...(options.overlay ? { overlay: options.overlay } : {}),
    });
  } finally {
    await runner.close();
  }
  const { project } = loadedProject;
  const t2 = performance.now();
  const graph = buildGraph(project);
  const t3 = performance.now();

  const byRule: Record<string, number> = {};
  const result = runRules(loadedProject, graph, enabled, index, byRule);
  const t4 = performance.now();
  const runnerStats = runner.stats();
  for (const [code, ms] of Object.entries(runnerStats.byRule)) byRule[code] = (byRule[code] ?? 0) + ms;
  const out: LintResult = {
    ...result,
    project,
    graph,
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

export type RuleRun = Omit<LintResult, 'project' | 'graph' | 'timing' | 'presetNote' | 'layoutNote'>;

export function runRules(
  loaded: LoadedProject,
  graph: StateGraph,
  enabled: readonly { rule: Rule; severity: Severity }[],
  index: ReadonlyMap<string, Rule>,
  byRule: Record<string, number>,
): RuleRun {
  const { project } = loaded;
  const knownCodes = new Set(index.keys());
  const suppressions = suppressionsByFile(project, index);
  const diagnostics: Diagnostic[] = [];
  const ruleStats: RuleStat[] = [];
  const ran: RuleMeta[] = [];
  let verifications = 0;
  let suppressed = 0;
  const skillName = (i: number) => (i >= 0 ? project.skills[i]!.name : undefined);
  for (const { rule, severity } of enabled) {
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
        severity,
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
    if (part) {
      for (const role of loaded.roles) {
        if (!part.kinds.includes(role.kind)) continue;
        const outcome = (role.kind === 'script' ? loaded.scripts : loaded.markdown).get(role.path);
        for (const raw of outcome?.diagnostics ?? []) {
          if (raw.code !== code) continue;
          emitted.push(
            raw.messageId === '$crash' ? crashed(code, raw) : make(raw.messageId, raw.data, raw.at, skillName(role.skill), raw.related),
          );
        }
      }
    }
    const c0 = performance.now();
    if (rule.check) {
      try {
        rule.check({
          project,
          graph,
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
        emitted.push(crashed(code, { code, messageId: '$crash', data: { error: (e as Error).message }, at: { file: project.skillsDir } }));
      }
    }
    byRule[code] = performance.now() - c0;
    for (const d of emitted) {
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

function fileData(loaded: LoadedProject, path: string, code: string): unknown {
  const outcome: FileOutcome | undefined = loaded.markdown.get(path) ?? loaded.scripts.get(path);
  return outcome?.data[code];
}

function crashed(code: string, raw: RawDiagnostic): Diagnostic {
  return {
    code: 'internal-error',
    severity: 'error',
    message: `Rule ${code} crashed: ${raw.data?.error ?? 'unknown error'}`,
    help: 'This is a bug in loopkit; please report it with the input that caused it.',
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
