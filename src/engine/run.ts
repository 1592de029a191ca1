/**
 * The engine: config → project model → graph → every enabled rule → sorted diagnostics.
 * No printing, no process exit. Throws ConfigError / ProjectError for input that cannot be checked.
 */
import { resolve } from 'node:path';
import { ConfigError, loadConfig, type LoadedConfig } from '../config/load.js';
import type { Config, SeveritySetting } from '../config/schema.js';
import { buildGraph, type StateGraph } from '../graph/graph.js';
import { markdownFiles } from '../model/files.js';
import type { Project } from '../model/types.js';
import { isDirectory } from '../parse/fs.js';
import { loadProject, ProjectError } from '../parse/project.js';
import { rules } from '../rules/index.js';
import { closest } from '../util/closest.js';
import { exists } from '../parse/fs.js';
import { compareDiagnostics, interpolate, type Diagnostic, type Severity } from './diagnostic.js';
import type { Rule, RuleMeta } from './rule.js';
import { isSuppressed, suppressedRanges, type SuppressedRange } from './suppress.js';

export interface LintOptions {
  /** the project root as the user typed it */
  root: string;
  /** run only these rules (codes or aliases) */
  only?: readonly string[];
}

export interface RuleStat {
  code: string;
  category: string;
  errors: number;
  warnings: number;
  info: number;
}

export interface LintResult {
  project: Project;
  graph: StateGraph;
  diagnostics: Diagnostic[];
  /** diagnostics silenced by inline suppression comments */
  suppressed: number;
  verifications: number;
  errors: number;
  warnings: number;
  info: number;
  /** per enabled rule, in registry order */
  ruleStats: RuleStat[];
  /** metadata of the rules that ran, in registry order */
  rules: RuleMeta[];
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

function resolveSeverities(
  index: ReadonlyMap<string, Rule>,
  config: Config,
  configFile: string | null,
  positions: Project['configPositions'],
): Map<Rule, Severity | 'off'> {
  const out = new Map<Rule, Severity | 'off'>();
  const problems: ConfigError['issues'][number][] = [];
  for (const [name, setting] of Object.entries(config.rules)) {
    const rule = index.get(name);
    if (!rule) {
      const pos = positions.get(`rules.${name}`);
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
  if (problems.length > 0) throw new ConfigError(configFile ?? '.loopkit.yaml', problems);
  return out;
}

function normaliseSetting(s: SeveritySetting): Severity | 'off' {
  return s === 'warn' ? 'warning' : s;
}

export interface Model {
  loaded: LoadedConfig;
  project: Project;
  graph: StateGraph;
}

/** Read a project (the root as the user typed it) into the contract model and its graph. */
export function loadModel(rootAsTyped: string): Model {
  const root = resolve(rootAsTyped);
  if (!exists(root)) throw new ProjectError(`path not found: ${rootAsTyped}`);
  if (!isDirectory(root)) throw new ProjectError(`not a directory: ${rootAsTyped} (loopkit checks a project directory)`);
  const loaded = loadConfig(root);
  const project = loadProject(root, rootAsTyped, loaded);
  return { loaded, project, graph: buildGraph(project) };
}

export function lint(options: LintOptions): LintResult {
  const index = ruleIndex();
  let selected: readonly Rule[] = rules;
  if (options.only && options.only.length > 0) {
    selected = options.only.map((name) => {
      const r = index.get(name);
      if (!r) {
        const guess = closest(name, [...index.keys()]);
        throw new UsageError(`unknown rule '${name}'${guess ? `; did you mean '${guess}'?` : ''}`);
      }
      return r;
    });
    selected = rules.filter((r) => selected.includes(r));
  }

  const { loaded, project, graph } = loadModel(options.root);
  const overrides = resolveSeverities(index, loaded.config, loaded.file, loaded.positions);

  const knownCodes = new Set(index.keys());
  const suppressions = suppressionsByFile(project, index);
  const diagnostics: Diagnostic[] = [];
  const ruleStats: RuleStat[] = [];
  const ran: RuleMeta[] = [];
  let verifications = 0;
  let suppressed = 0;
  for (const rule of selected) {
    const severity = overrides.get(rule) ?? rule.meta.defaultSeverity;
    if (severity === 'off') continue;
    verifications += rule.meta.scope === 'project' ? 1 : project.skills.length;
    const stat: RuleStat = { code: rule.meta.code, category: rule.meta.category, errors: 0, warnings: 0, info: 0 };
    ruleStats.push(stat);
    ran.push(rule.meta);
    const emitted: Diagnostic[] = [];
    try {
      rule.check({
        project,
        graph,
        config: project.config,
        knownCodes,
        report(input) {
          const tpl = rule.meta.messages[input.messageId];
          if (!tpl) throw new Error(`rule ${rule.meta.code} reported unknown messageId '${input.messageId}'`);
          const data = input.data ?? {};
          const d: Diagnostic = {
            code: rule.meta.code,
            severity,
            message: interpolate(tpl.message, data),
            help: tpl.help ? interpolate(tpl.help, data) : '',
            file: input.at.file,
            line: input.at.line ?? null,
            column: input.at.line == null ? null : (input.at.column ?? 1),
            messageId: input.messageId,
          };
          if (input.at.endLine != null) d.endLine = input.at.endLine;
          if (input.at.endColumn != null) d.endColumn = input.at.endColumn;
          if (input.skill !== undefined) d.skill = input.skill;
          if (input.related && input.related.length > 0) d.related = input.related;
          emitted.push(d);
        },
      });
    } catch (e) {
      emitted.push({
        code: 'internal-error',
        severity: 'error',
        message: `Rule ${rule.meta.code} crashed: ${(e as Error).message}`,
        help: 'This is a bug in loopkit; please report it with the input that caused it.',
        file: project.skillsDir,
        line: null,
        column: null,
      });
    }
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
    project,
    graph,
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

/** Every parsed file's suppressed line ranges, by file, with code aliases resolved to codes. */
function suppressionsByFile(project: Project, index: Map<string, Rule>): Map<string, SuppressedRange[]> {
  const out = new Map<string, SuppressedRange[]>();
  for (const f of markdownFiles(project)) {
    if (!f.suppressions?.length) continue;
    out.set(f.path, suppressedRanges(f.suppressions, f.lineStarts.length, (c) => index.get(c)?.meta.code ?? c));
  }
  return out;
}

/** A bad command line (exit 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
