/**
 * A rule: its metadata (code, default severity, description, message templates) next to its check.
 * Rules read the model and the graph and report; they never do I/O and never import each other.
 *
 * A rule has up to two parts, run in the two phases of the engine:
 * - `file`: the per-file phase. It sees one file of the kinds it names, with its text and mdast
 *   tree, and may report problems that need nothing but that file. It may also return data (plain,
 *   serialisable) for its project part. It runs once per file content: its results are cached and
 *   it may run on a worker thread, so it must depend on the file alone.
 * - `check`: the project phase. It sees the extracted model of the whole project (no texts, no
 *   trees), the graph, the configuration, and the data its file part returned for each file.
 */
import type { Config } from '../config/schema.js';
import type { StateGraph } from '../graph/graph.js';
import type { LoaderTable } from '../model/targets.js';
import type { FileFacts, FileKind, Project, Skill, SourceFile } from '../model/types.js';
import type { TextEdit } from '../util/edits.js';
import type { Related, Severity } from './diagnostic.js';
import type { Read } from './reads.js';

export type { TextEdit };

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
  | 'scripts'
  /** runtime checks (`loopkit state`, `loopkit trace`): codes of src/runtime/codes.ts, not rules of `check` */
  | 'state-file'
  | 'trace'
  /** a rule of a plugin that names no category of its own */
  | 'plugin';

/** How sure a rule's findings are (RuleMeta.certainty). */
export type Certainty = 'definite' | 'heuristic';

export const CERTAINTIES: readonly Certainty[] = ['definite', 'heuristic'];

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
  /**
   * How sure a finding of the rule is. `definite`: the specification or a loader rejects what it
   * reports, or a file, anchor, key or section that must exist does not (it follows from the parsed
   * frontmatter, links, contract DSL or graph alone). `heuristic`: it reads prose, paths in prose,
   * dates or phrasing, or measures against guidance (a size, a style) that a correct skill may
   * break. Where loopkit chooses the configuration itself, and under the agent-skills preset, a
   * heuristic is never an error (engine/severity.ts).
   */
  certainty: Certainty;
  /**
   * What each loader does with the condition the rule reports (model/targets.ts), with the page that
   * says so: the severity follows for each skill from the loaders it is written for
   * (engine/severity.ts). `every`: the condition breaks the skill whatever loads it. Every definite
   * rule has one; a heuristic rule has none (targets do not change it).
   */
  loaders?: LoaderTable;
  /**
   * `agent-file`: the loader table is about the agent file or plugin manifest a finding is in
   * (model/agents.ts: its place and format give its loaders), not about the targets of a skill.
   */
  loadersOf?: 'agent-file';
  /**
   * `name`: the rule checks the skill's name (that it is there, its characters, length, reserved words,
   * its folder). A name is the author's choice for the loader the skill is written for: what only a
   * loader that reads the skill's folder by the way (GitHub Copilot in `.claude/skills/`) rejects of it
   * is a note, shown with `--verbose` (engine/severity.ts).
   */
  subject?: 'name';
  category: RuleCategory;
  /** one line: what the rule checks */
  description: string;
  /** does the rule judge the whole project once, or each skill? (for the verification count) */
  scope: 'project' | 'skill';
  /** relation to the reference implementation v0.3.3 */
  reference: 'same' | 'improved' | 'new';
  /**
   * `loopkit check --fix` can repair (some of) the rule's problems mechanically: the rule has a
   * `fix` part (see FixPart). Absent means false.
   */
  fixable?: boolean;
  /**
   * The rule reads the markdown files SKILL.md links to (reference files). They are read and
   * parsed only when an enabled rule says so.
   */
  references?: boolean;
  messages: Record<M, MessageTemplate>;
  /**
   * What the project part reads (engine/reads.ts): a session re-runs it only when one of these
   * changed. Absent: everything (it always runs).
   */
  reads?: readonly Read[];
  /**
   * Each finding of `check` is about one skill, in its folder, and follows from that skill alone (its
   * files, its frontmatter, its contract) and the configuration: after an edit of some skills' files,
   * a session runs `check` over those skills only and keeps the other skills' findings
   * (engine/run.ts). test/reads.test.ts holds every local rule to it on every fixture.
   */
  local?: boolean;
  /** the address of the rule's documentation (a plugin's rule; a core rule's page is docs/rules/<code>.md) */
  docs?: string;
  /** the plugin the rule comes from (its name, the prefix of its code); absent: a core rule */
  plugin?: string;
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
  /** the states of the transition graph the problem is about (graph pictures mark them) */
  states?: readonly string[];
  /**
   * The contract element the problem is about, when the place does not say it (a missing section
   * is reported at the heading it belongs before): the baseline records problems by element, not
   * line. Default: the transition, section or key at the place (engine/baseline.ts).
   */
  element?: string;
}

export interface RuleContext<M extends string = string, D = unknown> {
  readonly project: Project;
  readonly graph: StateGraph;
  readonly config: Config;
  /** every code and alias loopkit knows (for rules that check code names written by users) */
  readonly knownCodes: ReadonlySet<string>;
  /** what this rule's file part returned for the file at `path` (undefined when nothing, or not read) */
  fileData(path: string): D | undefined;
  report(input: ReportInput<M>): void;
}

/** A problem found in the per-file phase: in the file being checked, for the skill that holds it. */
export interface FileReportInput<M extends string> {
  messageId: M;
  data?: Record<string, string | number>;
  at: Place;
  related?: Related[];
}

export interface FileRuleContext<M extends string = string> {
  /** the file: text, line table and (markdown) mdast tree */
  readonly file: SourceFile;
  readonly kind: FileKind;
  /** what the per-file phase extracted from it */
  readonly facts: FileFacts;
  /** SKILL.md: the markdown files in its directory and sub-folders, relative to it (empty for other files) */
  readonly siblings: readonly string[];
  report(input: FileReportInput<M>): void;
}

export interface FilePart<M extends string, D> {
  /** the kinds of file the part reads */
  kinds: readonly FileKind[];
  /** returns plain data (JSON-safe) for the project part, or nothing */
  check(ctx: FileRuleContext<M>): D | undefined | void;
}

/** A problem of the rule in the file being fixed, as the check reported it. */
export interface FixProblem<M extends string> {
  messageId: M;
  /** the values of the message template */
  data: Readonly<Record<string, string | number>>;
  /** where it was reported, in the file as it was checked (earlier passes of --fix may have moved it) */
  line: number | null;
  column: number | null;
}

export interface FixContext<M extends string = string> {
  /** the file as it is now (after the edits of earlier passes): text, line table and mdast tree */
  readonly file: SourceFile;
  readonly kind: FileKind;
  readonly facts: FileFacts;
  readonly config: Config;
  /** the rule's problems in this file that its fix part repairs (never empty) */
  readonly problems: readonly FixProblem<M>[];
}

/**
 * `loopkit check --fix`: repairs problems of the rule that are purely mechanical (moving sections,
 * adding a placeholder heading, rewriting a value's syntax), never prose. `fix` returns the edits
 * for the file as it is now, and returns none once there is nothing left to do (passes repeat
 * until no rule has edits). The engine checks the result: a file whose fix does not remove the
 * problems, or breaks its parse, is left as it was.
 */
export interface FixPart<M extends string> {
  kinds: readonly FileKind[];
  /** the messages the part repairs (default: every message of the rule) */
  messages?: readonly NoInfer<M>[];
  fix(ctx: FixContext<M>): TextEdit[] | Promise<TextEdit[]>;
}

export interface Rule<M extends string = string, D = unknown> {
  meta: RuleMeta<M>;
  /** the per-file part (see the module comment) */
  file?: FilePart<M, D>;
  /** the project part */
  check?(ctx: RuleContext<M, D>): void;
  /** the fix part (meta.fixable), see FixPart */
  fix?: FixPart<M>;
  /**
   * What the code of the rule is, for the cache: results of a rule set are reused only by the same
   * rule set. Core rules have none (the build stamp of the cache covers them); a plugin's rules have
   * its name, version and the hash of its module (api/plugins.ts).
   */
  origin?: string;
}

/** Identity at runtime; gives messageId and data type checking in rule modules. */
export function defineRule<M extends string, D = never>(rule: Rule<M, D>): Rule<M, D> {
  return rule;
}

/**
 * The origins of the rules of a set that are not the build's own (plugins', Rule.origin), as one
 * string: '' for the core rules alone. Two sets with the same origins run the same code.
 */
export function ruleOrigins(rules: readonly Rule[]): string {
  return [...new Set(rules.flatMap((r) => (r.origin !== undefined ? [r.origin] : [])))].sort().join(' ');
}

/** Helper for per-skill rules. */
export function forEachSkill(project: Project, fn: (skill: Skill) => void): void {
  for (const s of project.skills) fn(s);
}
