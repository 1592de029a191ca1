/**
 * A rule: its metadata (code, default severity, description, message templates) next to its check.
 * Rules read the model and the graph and report; they never do I/O and never import each other.
 */
import type { Config } from '../config/schema.js';
import type { StateGraph } from '../graph/graph.js';
import type { Project, Skill } from '../model/types.js';
import type { Related, Severity } from './diagnostic.js';

export type RuleCategory =
  | 'config'
  | 'discovery'
  | 'graph'
  | 'simulation'
  | 'language'
  | 'sections'
  | 'states'
  | 'process'
  | 'completeness'
  | 'cross-references'
  | 'constraints'
  | 'frontmatter'
  | 'naming'
  | 'structure'
  | 'progressive'
  | 'terminology'
  | 'workflow'
  | 'anti-patterns'
  | 'scripts';

export interface MessageTemplate {
  /** `{placeholder}` template of the message */
  message: string;
  /** `{placeholder}` template of the hint ('' or absent: none) */
  help?: string;
}

export interface RuleMeta<M extends string = string> {
  /** the diagnostic code (the reference's kebab-case code) */
  code: string;
  /** other names accepted wherever a code can be named (config `rules:`, `--rule`) */
  aliases?: readonly string[];
  defaultSeverity: Severity;
  category: RuleCategory;
  /** one line: what the rule checks */
  description: string;
  /** does the rule judge the whole project once, or each skill? (for the verification count) */
  scope: 'project' | 'skill';
  /** relation to the reference implementation v0.3.3 */
  reference: 'same' | 'improved' | 'new';
  messages: Record<M, MessageTemplate>;
}

export interface Place {
  file: string;
  line?: number | null;
  column?: number | null;
  endLine?: number | null;
  endColumn?: number | null;
}

export interface ReportInput<M extends string> {
  messageId: M;
  data?: Record<string, string | number>;
  at: Place;
  skill?: string;
  related?: Related[];
}

export interface RuleContext<M extends string = string> {
  readonly project: Project;
  readonly graph: StateGraph;
  readonly config: Config;
  /** every code and alias loopkit knows (for rules that check code names written by users) */
  readonly knownCodes: ReadonlySet<string>;
  report(input: ReportInput<M>): void;
}

export interface Rule<M extends string = string> {
  meta: RuleMeta<M>;
  check(ctx: RuleContext<M>): void;
}

/** Identity at runtime; gives messageId type checking in rule modules. */
export function defineRule<M extends string>(rule: Rule<M>): Rule<M> {
  return rule;
}

/** Helper for per-skill rules. */
export function forEachSkill(project: Project, fn: (skill: Skill) => void): void {
  for (const s of project.skills) fn(s);
}
