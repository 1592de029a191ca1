/**
 * The public API (docs/api.md): checking, fixing and holding a project open, the rule API for plugins
 * (defineRule, definePlugin, the model's types), reports, the graph and its legal moves, the state,
 * trace and session checks, coverage. The command line's own entry is not part of it.
 */
export { lint, loadModel, ruleIndex, computeFixes, openSession, coreRules, type LintOptions } from './api/engine.js';
export { UsageError, type LintResult } from './engine/run.js';
export { WorkerPool } from './engine/pool.js';
export {
  ProjectSession,
  type SessionOptions,
  type SessionState,
  type SessionCheck,
  type FileChange,
  type UpdateTiming,
} from './engine/session.js';
export type { RunnerOptions } from './engine/runner.js';
export type { Diagnostic, Severity, Related } from './engine/diagnostic.js';
export type {
  Rule,
  RuleMeta,
  RuleContext,
  FileRuleContext,
  FilePart,
  FixPart,
  FixContext,
  MessageTemplate,
  ReportInput,
  FileReportInput,
  Place,
  TextEdit,
} from './engine/rule.js';
export { defineRule, definePlugin, type Plugin, type PluginRule, type PluginRuleMeta } from './api/plugins.js';
export type { Project, Skill, Frontmatter, FrontmatterEntry, FileModel, SourceFile, FileFacts, FileKind } from './model/types.js';
export { loadConfig, parseConfigText, ConfigError } from './config/load.js';
export { configSchema, defaultConfig, type Config } from './config/schema.js';
export { coreRules as rules } from './api/core-rules.js';
export { buildGraph, type StateGraph } from './graph/graph.js';
export { handlesState, judgeMove, legalMoves, runEnded, type Legal, type Move, type Verdict } from './graph/moves.js';
export type { FixRun, FileFix } from './engine/fix.js';
export { applyBaseline, createBaseline, type Baseline, type BaselineEntry } from './engine/baseline.js';
export { textReport } from './reporters/text.js';
export { jsonReport } from './reporters/json.js';
export { sarifReport } from './reporters/sarif.js';
export { githubReport } from './reporters/github.js';
export { checkState } from './api/state.js';
export { checkTrace } from './commands/trace.js';
export { checkSession } from './commands/watch.js';
export { measureCoverage } from './commands/coverage.js';
export { runtimeCodes } from './runtime/codes.js';
export type { Report } from './reporters/types.js';
export { compactReport } from './reporters/compact.js';
export { junitReport } from './reporters/junit.js';
export { VERSION } from './version.js';
