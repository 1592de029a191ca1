/**
 * The API layer's engine: the engine's entry points with loopkit's core rules handed to them. The
 * command line, the language server and the MCP server call these; the engine itself is handed its
 * rules and imports none.
 */
import { ProjectSession, type SessionOptions } from '../engine/session.js';
import * as fix from '../engine/fix.js';
import * as run from '../engine/run.js';
import type { Diagnostic } from '../engine/diagnostic.js';
import type { Rule } from '../engine/rule.js';
import { coreRules } from './core-rules.js';

export { coreRules };

/** Options of the engine's calls without the rules, which the API layer hands it. */
type Without<T> = Omit<T, 'ruleSet'>;

/** What a check of a project takes, the rules aside. */
export type LintOptions = Without<run.LintOptions>;

/** Check a project with the core rules. */
export function lint(options: LintOptions): Promise<run.LintResult> {
  return run.lint({ ...options, ruleSet: coreRules });
}

/** Read a project into the contract model and its graph. */
export function loadModel(rootAsTyped: string, options: Without<Parameters<typeof run.loadModel>[1]> = {}): Promise<run.Model> {
  return run.loadModel(rootAsTyped, { ...options, ruleSet: coreRules });
}

/** What applies to a file of a project (`check --print-config`). */
export function fileConfig(
  rootAsTyped: string,
  file: string,
  options: Without<Parameters<typeof run.fileConfig>[2]> = {},
): Promise<run.FileConfig> {
  return run.fileConfig(rootAsTyped, file, { ...options, ruleSet: coreRules });
}

/** The core rules by code and alias. */
export function ruleIndex(): Map<string, Rule> {
  return run.ruleIndex(coreRules);
}

/** A project held open: checked again on every change (the language server, MCP). */
export function openSession(options: Without<SessionOptions>): Promise<ProjectSession> {
  return ProjectSession.open({ ...options, ruleSet: coreRules });
}

/** `--fix`: the repairs of the fixable problems, checked before anything is written. */
export function computeFixes(options: Without<fix.FixOptions>): Promise<fix.FixRun> {
  return fix.computeFixes({ ...options, ruleSet: coreRules });
}

/** Is this diagnostic one a core rule's fix part repairs? */
export function repairable(d: Diagnostic): boolean {
  return fix.repairable(d, coreRules);
}

/** One file's text with some of its problems repaired (the language server's quick fixes). */
export function fixText(
  path: string,
  text: string,
  diagnostics: readonly Diagnostic[],
  config: run.LintResult['project']['config'],
): Promise<string | null> {
  return fix.fixText(path, text, diagnostics, config, coreRules);
}
