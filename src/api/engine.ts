/**
 * The API layer's engine: the engine's entry points with the rules of the project handed to them —
 * loopkit's core rules and the rules of the plugins its `.loopkit.yaml` names (api/plugins.ts). The
 * command line, the language server and the MCP server call these; the engine itself is handed its
 * rules and imports none.
 */
import { resolve } from 'node:path';
import { parseConfigText } from '../config/load.js';
import { readConfigFile } from '../config/read.js';
import { ProjectSession, type SessionOptions } from '../engine/session.js';
import * as fix from '../engine/fix.js';
import * as run from '../engine/run.js';
import type { Diagnostic } from '../engine/diagnostic.js';
import type { Rule } from '../engine/rule.js';
import type { RunnerOptions } from '../engine/runner.js';
import { exists, isDirectory } from '../parse/fs.js';
import { coreRules, withPlugins } from './core-rules.js';
import { loadPlugins, type PluginModule } from './plugins.js';
import type { WorkerSetup } from './worker.js';

export { coreRules };

/** Options of the engine's calls without the rules, which the API layer hands it. */
type Without<T> = Omit<T, 'ruleSet'>;

/**
 * Whether the plugins `.loopkit.yaml` names are loaded (default true). Loading a plugin runs its
 * code: a server an agent drives (MCP) passes false and checks with the core rules.
 */
export interface PluginChoice {
  plugins?: boolean;
}

/** What a check of a project takes, the rules aside. */
export type LintOptions = Without<run.LintOptions> & PluginChoice;

/** The rules of a project: the core rules and its plugins' rules, with the plugins' modules. */
export interface ProjectRules {
  ruleSet: readonly Rule[];
  plugins: PluginModule[];
}

const CORE: ProjectRules = { ruleSet: coreRules, plugins: [] };

/**
 * The rules a project is checked with. Its `.loopkit.yaml` is parsed here only when its text names
 * plugins at all (the engine reads it again, from its cache on a cached run); a config the engine
 * would reject is left for the engine to report, with the same error.
 */
export async function projectRules(rootAsTyped: string, choice: PluginChoice = {}): Promise<ProjectRules> {
  if (choice.plugins === false) return CORE;
  const root = resolve(rootAsTyped);
  if (!exists(root) || !isDirectory(root)) return CORE;
  const source = readConfigFile(root);
  if (source.text === null || !source.text.includes('plugins')) return CORE;
  const loaded = parseConfigText(source.text, source.file);
  if (loaded.config.plugins.length === 0) return CORE;
  const { modules, rules } = await loadPlugins(root, loaded);
  return { ruleSet: withPlugins(rules), plugins: modules };
}

/** What worker threads need to load the same plugins (none without plugins). */
function workerSetup(rules: ProjectRules, root: string): { workerData?: WorkerSetup } {
  return rules.plugins.length > 0 ? { workerData: { root: resolve(root), plugins: rules.plugins } } : {};
}

/** Options with the rules handed in (and what worker threads need to load the same plugins). */
function withRules<T extends RunnerOptions>(options: T, rules: ProjectRules, root: string): T & run.WithRules {
  return { ...options, ruleSet: rules.ruleSet, ...workerSetup(rules, root) };
}

/** Check a project with its rules. */
export async function lint(options: LintOptions): Promise<run.LintResult> {
  return run.lint(withRules(options, await projectRules(options.root, options), options.root));
}

/** Read a project into the contract model and its graph. */
export async function loadModel(
  rootAsTyped: string,
  options: Without<Parameters<typeof run.loadModel>[1]> & PluginChoice = {},
): Promise<run.Model> {
  return run.loadModel(rootAsTyped, withRules(options, await projectRules(rootAsTyped, options), rootAsTyped));
}

/** What applies to a file of a project (`check --print-config`). */
export async function fileConfig(
  rootAsTyped: string,
  file: string,
  options: Without<Parameters<typeof run.fileConfig>[2]> & PluginChoice = {},
): Promise<run.FileConfig> {
  return run.fileConfig(rootAsTyped, file, withRules(options, await projectRules(rootAsTyped, options), rootAsTyped));
}

/** Rules by code and alias: the core rules, or the rules of a project (projectRules). */
export function ruleIndex(ruleSet: readonly Rule[] = coreRules): Map<string, Rule> {
  return run.ruleIndex(ruleSet);
}

/** A project held open: checked again on every change (the language server, MCP). Its plugins are loaded when it opens. */
export async function openSession(options: Without<SessionOptions> & PluginChoice): Promise<ProjectSession> {
  if (options.plugins === false) return ProjectSession.open({ ...options, ruleSet: coreRules });
  // the plugins are loaded each time the session reads the project: a changed plugins: takes effect,
  // and one that cannot be loaded is shown as the configuration's problem
  return ProjectSession.open({
    ...options,
    ruleSet: coreRules,
    loadRules: async () => {
      const rules = await projectRules(options.root, options);
      return { ruleSet: rules.ruleSet, ...workerSetup(rules, options.root) };
    },
  });
}

/** `--fix`: the repairs of the fixable problems, checked before anything is written. */
export async function computeFixes(options: Without<fix.FixOptions> & PluginChoice): Promise<fix.FixRun> {
  return fix.computeFixes(withRules(options, await projectRules(options.root, options), options.root));
}

/** Is this diagnostic one a fix part of the rule set repairs (the core rules unless a session's are given)? */
export function repairable(d: Diagnostic, ruleSet: readonly Rule[] = coreRules): boolean {
  return fix.repairable(d, ruleSet);
}

/** One file's text with some of its problems repaired (the language server's quick fixes). */
export function fixText(
  path: string,
  text: string,
  diagnostics: readonly Diagnostic[],
  config: run.LintResult['project']['config'],
  ruleSet: readonly Rule[] = coreRules,
): Promise<string | null> {
  return fix.fixText(path, text, diagnostics, config, ruleSet);
}
