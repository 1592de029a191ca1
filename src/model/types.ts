/**
 * The contract model.
 *
 * loopkit works in two phases. The per-file phase reads one file, parses it (markdown into mdast)
 * and extracts its facts: a compact, serialisable record of everything the project phase needs
 * (sections, transitions, directives, links, frontmatter entries, positions). The mdast tree and
 * the text are dropped after that phase; what the per-file phase produced can be cached by content
 * and computed on worker threads. The project phase builds the Project below from the facts alone,
 * then the graph, then runs the cross-file rules.
 *
 * Everything in this file except SourceFile is plain data (structured-clone and JSON safe).
 */
import type { Root } from 'mdast';
import type { ConfigWarning } from '../config/load.js';
import type { Config, ConfigPositions } from '../config/schema.js';

import type { AgentDef, PluginManifest } from './agents.js';
import type { SkillTargets } from './targets.js';

/** A 1-based place in a file. `file` is relative to the project root, with `/` separators. */
export interface Position {
  file: string;
  line: number | null;
  column: number | null;
  endLine?: number | null;
  endColumn?: number | null;
}

/**
 * An inline suppression comment: `<!-- loopkit-disable-next-line code, code -- reason -->` (also
 * `loopkit-disable-line`, and `loopkit-disable` … `loopkit-enable` ranges); in frontmatter, the same
 * words in a YAML comment (`# loopkit-disable-next-line code`).
 */
export interface SuppressionComment {
  verb: 'disable-next-line' | 'disable-line' | 'disable' | 'enable';
  /** the codes as written; empty = every code */
  codes: readonly string[];
  /** first and last line of the comment (1-based) */
  line: number;
  endLine: number;
  column: number;
  reason: string;
}

/**
 * What a file is to the project, told by its path alone (so a file's facts depend on its path and
 * content only): `SKILL.md`, `LOOP.md`, `HANDOFFS.md`, the project's `README.md`, a file in a
 * skill's `scripts/` directory, or any other markdown file (a reference file linked from SKILL.md).
 */
export type FileKind = 'skill' | 'loop' | 'handoffs' | 'readme' | 'script' | 'reference';

/**
 * A file read and parsed: the per-file phase's view, with the text and (for markdown) the mdast
 * tree. Never part of the Project: the project phase sees FileModel.
 */
export interface SourceFile {
  /** project-relative path with `/` separators */
  path: string;
  text: string;
  /** start offset (UTF-16 index) of every line */
  lineStarts: readonly number[];
  /** the mdast tree; present for markdown files */
  root?: Root;
}

/** A file as the project phase sees it: its place and extracted facts, no text. */
export interface FileModel {
  /** project-relative path with `/` separators */
  path: string;
  /** number of line starts (a final line break starts one more, empty, line) */
  lines: number;
  /** number of lines as an editor shows them (0 for an empty file) */
  lineCount: number;
  /** inline suppression comments (markdown files), in document order */
  suppressions: readonly SuppressionComment[];
  /** relative `.md` links and link definitions, in document order (markdown files) */
  links: readonly LinkTarget[];
  /** links, images and definitions to paths in the project, in document order (markdown files) */
  localLinks: readonly LocalLink[];
  /** the anchors the file defines: heading slugs, `{#id}` attributes, HTML ids (markdown files) */
  anchors: readonly string[];
  /**
   * the file imports markdown partials (`import Methods from '../shared/_methods.mdx'`, MDX as
   * Docusaurus renders it): their headings are its anchors too, and loopkit does not read them
   */
  importsPartials?: true;
  /** set when the markdown was too complex to parse (see parse/complexity.ts): nothing but its DSL lines and frontmatter was read */
  tooComplex?: Complexity;
}

/** Why a markdown file was not parsed: the construct, where, how much of it, and the limit. */
export interface Complexity {
  construct: string;
  line: number;
  measure: number;
  limit: number;
}

/** A link, image or link definition whose destination is a path in the project. */
export interface LocalLink {
  /** the destination as written */
  url: string;
  /** the path part, percent-decoded, without `#anchor` and `?query` ('' for a link to an anchor of the file itself) */
  path: string;
  /** the `#anchor`, decoded, when there is one */
  anchor?: string;
  /** where the destination is written */
  line: number;
  column: number;
  image: boolean;
  /** written with the skill-directory placeholder (`{baseDir}/…`) */
  fromSkillDir?: boolean;
}

/** A frontmatter key with the place where it is written. */
export interface FrontmatterEntry {
  /** the dotted path of the key (`metadata.owner` for a nested one) */
  key: string;
  /** the keys of the path, outermost first (a key may itself contain a dot) */
  path: readonly string[];
  /** the parsed YAML value (string, number, list, map, null …) */
  value: unknown;
  line: number;
  column: number;
  /** YAML `source` of a scalar value, when it is one */
  raw?: string;
  /**
   * The source text where the value starts (top-level entries): what follows `key:` on the key's
   * line (a trailing ` # comment` dropped), or, when that is empty, the first non-blank,
   * non-comment line below it inside the frontmatter. Tells a flow collection from a block one.
   */
  source?: string;
}

export interface Frontmatter {
  /** where the block starts (line of the opening `---`) */
  line: number;
  /** line of the closing `---` (null when the block is never closed) */
  endLine: number | null;
  /** top-level entries in document order */
  entries: readonly FrontmatterEntry[];
  /** nested entries of mapping values, keyed `parent.child` (any depth, dotted) */
  nested: readonly FrontmatterEntry[];
  /** a YAML syntax error, if the block could not be parsed */
  error?: {
    message: string;
    line: number;
    column: number;
    /** the keys whose values Claude Code's second reading quotes, when that reading parses (claudeCodeQuotes) */
    claudeCodeQuotes?: string[];
  };
}

export interface Section {
  /** heading text (mdast-util-to-string of the heading), trimmed */
  title: string;
  /** normalised title for matching: lower case, single spaces */
  key: string;
  depth: number;
  line: number;
  column: number;
  /** line of the last line that belongs to the section */
  endLine: number;
}

export type DirectiveKind = 'trigger' | 'handoff' | 'halt';

export interface Trigger {
  text: string;
  line: number;
  column: number;
}
export interface HandoffDirective {
  skill: string;
  agent: string;
  line: number;
  column: number;
  skillColumn: number;
}
export interface HaltDirective {
  reason: string;
  /** the parsed bound; null when absent ("unbounded") */
  after: number | null;
  line: number;
  column: number;
  reasonColumn: number;
}

export interface Transition {
  from: string;
  to: string;
  /** the arrow as written: `→`, `->` or `--->` */
  arrow: string;
  file: string;
  line: number;
  column: number;
  fromColumn: number;
  toColumn: number;
  /** the H2 section the transition is written in ('' before the first H2) */
  section: string;
  trigger?: Trigger;
  handoff?: HandoffDirective;
  halt?: HaltDirective;
}

/** A line that looks like DSL but does not parse. */
export interface MalformedLine {
  kind: 'transition' | DirectiveKind;
  text: string;
  line: number;
  column: number;
  reason: string;
}

/**
 * A `halt <word>` occurrence anywhere in LOOP.md prose or DSL. `directive` is true for the reason of a
 * line that opens with the lower-case keyword (`halt stall after 3 iterations`, also list-marked or
 * backticked).
 */
export interface HaltMention {
  word: string;
  line: number;
  column: number;
  directive: boolean;
}
/** A `handoff <skill> to <agent>` occurrence anywhere in LOOP.md. */
export interface HandoffMention {
  skill: string;
  agent: string;
  line: number;
  column: number;
}
/** The first word of an ordered-list step in LOOP.md. */
export interface StepVerb {
  word: string;
  line: number;
  column: number;
  section: string;
  /** the next word in the source (lower case, emphasis markers skipped; '' when none), for `hand off` */
  next: string;
}

/** A cell of a table as written: trimmed, `\|` unescaped, with the place where its text starts. */
export interface TableCell {
  text: string;
  line: number;
  column: number;
}

/**
 * A row of the Loop State Schema table: `| field | type | description |`. The field and type cells
 * have their code-span backticks removed; a row with more cells than the header (an enumeration
 * written with unescaped pipes, `| status | pending | done | … |`) has the surplus cells joined
 * into its type with ` | `.
 */
export interface SchemaRow {
  field: TableCell;
  type: TableCell;
  description: string;
}

/** A row of the state-value table (`| value | state |`): a value a state file writes, and the state it stands for. */
export interface StateValueRow {
  value: TableCell;
  state: TableCell;
}

/**
 * The tables of the `## Loop State Schema` section of LOOP.md: the field table (header with a
 * `field` and a `type` column) and the optional state-value table (header with a `value` and a
 * `state` column), each the first of its kind in the section.
 */
export interface StateSchemaFacts {
  /** where the first of the two tables starts (its header row) */
  line: number;
  column: number;
  fields: readonly SchemaRow[];
  values: readonly StateValueRow[];
}

/** The LOOP.md facts. */
export interface LoopFacts {
  sections: readonly Section[];
  transitions: readonly Transition[];
  malformed: readonly MalformedLine[];
  halts: readonly HaltMention[];
  handoffs: readonly HandoffMention[];
  steps: readonly StepVerb[];
  /** the tables of the Loop State Schema section; null when the section has neither table */
  stateSchema: StateSchemaFacts | null;
  /** line of the last line with text (1 for an empty file): where an appended section goes */
  lastTextLine: number;
}

export interface LoopContract extends LoopFacts {
  file: FileModel;
}

/** A state named in a SKILL.md state-model section. */
export interface DeclaredState {
  name: string;
  line: number;
  column: number;
}

/** A top-level heading of SKILL.md (for the configurable state-model sections). */
export interface HeadingFact {
  key: string;
  depth: number;
  line: number;
  column: number;
}

/**
 * A backticked token of SKILL.md without whitespace, with the index (in SkillFacts.headings) of the
 * top-level heading whose region holds it (-1 before the first), for the state-model sections.
 */
export interface CodeSpanFact {
  name: string;
  line: number;
  column: number;
  heading: number;
  /** written inside that heading itself */
  inHeading: boolean;
}

/** A relative file path named in prose or inline code (parse/named-paths.ts), where it is written. */
export interface NamedPath {
  /** as written, without `./`, a skill-directory placeholder or a trailing line number */
  path: string;
  line: number;
  column: number;
  /** written in inline code (else in prose) */
  code: boolean;
}

/** The SKILL.md facts. */
export interface SkillFacts {
  frontmatter: Frontmatter | null;
  /** relative file paths named in prose and inline code, in document order */
  namedPaths: readonly NamedPath[];
  /** H2 sections */
  sections: readonly Section[];
  headings: readonly HeadingFact[];
  codeSpans: readonly CodeSpanFact[];
}

export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | 'other';
}

export interface ReferencedFile {
  /** link target as written */
  target: string;
  /** null when the file does not exist or cannot be read as text (or references were not read) */
  file: FileModel | null;
}

/** A relative `.md` link (or link definition) of a markdown file, as written. */
export interface LinkTarget {
  target: string;
  line: number;
  column: number;
  /** where the destination itself is written */
  urlLine: number;
  urlColumn: number;
  /** written with the skill-directory placeholder (`{baseDir}/…`): relative to the skill directory, not to the file */
  fromSkillDir?: boolean;
}

/** Everything the per-file phase extracts from one file; which parts are present depends on its kind. */
export interface FileFacts {
  file: FileModel;
  skill?: SkillFacts;
  loop?: LoopFacts;
  /** legacy HANDOFFS.md transitions */
  handoffs?: readonly Transition[];
}

export interface Skill {
  /** frontmatter `name`, or the directory name when there is none */
  name: string;
  /** the loaders the skill is written for, and those that also read it (model/targets.ts) */
  targets: SkillTargets;
  /** the directory name */
  dirName: string;
  /** project-relative directory path */
  dir: string;
  skillFile: FileModel;
  frontmatter: Frontmatter | null;
  sections: readonly Section[];
  /** states declared in state-model sections (by alias), in document order, de-duplicated */
  declaredStates: readonly DeclaredState[];
  loop: LoopContract | null;
  /** LOOP.md exists but could not be read */
  loopReadError?: string;
  /** legacy HANDOFFS.md transitions, read only when the skill has no LOOP.md */
  legacyHandoffs: { file: FileModel; transitions: readonly Transition[] } | null;
  /** entries directly inside the skill directory, sorted by name */
  entries: readonly DirEntry[];
  /** text files directly inside `scripts/`, sorted by name (null if there is no scripts dir) */
  scripts: readonly FileModel[] | null;
  /** relative `.md` links of SKILL.md, in document order (duplicates kept) */
  links: readonly LinkTarget[];
  /** markdown files linked from SKILL.md, by target */
  references: ReadonlyMap<string, ReferencedFile>;
  /**
   * For a skill folder that is a repository of its own (it holds `.git` or `.github/`): the local
   * destinations its README.md links, relative to the folder and normalised (markdownLinkDestinations).
   * Absent otherwise.
   */
  readmeLinks?: readonly string[];
}

/** A problem found while reading the project (before any rule runs). */
export interface LoadProblem {
  code: 'skill-read-error';
  file: string;
  message: string;
}

/** Why a SKILL.md discovery found is not checked as a skill (discover/discover.ts). */
export type UncheckedReason =
  /** outside every skills directory */
  | 'outside'
  /** directly in a skills directory (skills are the folders inside it) */
  | 'skills-dir'
  /** at the project root */
  | 'root';

/** A SKILL.md discovery found and did not check as a skill. */
export interface UncheckedSkill {
  /** the folder that holds the SKILL.md, project-relative ('' = the root) */
  dir: string;
  reason: UncheckedReason;
}

export interface Project {
  /** the root as typed by the user (used only for display) */
  displayRoot: string;
  /** absolute project root */
  root: string;
  config: Config;
  configPositions: ConfigPositions;
  /** project-relative path of the config file, or null when there is none */
  configFile: string | null;
  /** located problems found in the config that do not stop the run (unknown keys) */
  configWarnings: readonly ConfigWarning[];
  /** the first skills directory, project-relative ('' for the root itself) */
  skillsDir: string;
  /** every skills directory, project-relative, in setting order */
  skillsDirs: readonly string[];
  /** the presets the project is checked with (config/presets.ts) */
  presets: readonly string[];
  skills: readonly Skill[];
  /** the agent definitions found (model/agents.ts), sorted by path */
  agents: readonly AgentDef[];
  /** the Claude Code plugin and marketplace manifests found, sorted by path */
  manifests: readonly PluginManifest[];
  problems: readonly LoadProblem[];
  /** the SKILL.md files discovery found and did not check (skill-outside-skills-dir); absent: none */
  unchecked?: readonly UncheckedSkill[];
  /** README.md at the project root, if any */
  readme: FileModel | null;
  /** project-relative paths that exist (used by the loop-state-file rule) */
  existingPaths: ReadonlySet<string>;
  /** paths of loop_state_files that lie outside the project (absolute, `../`, or a link that leads out): never looked up */
  outsidePaths: ReadonlySet<string>;
  /** the local link destinations of SKILL.md and reference files that exist (each of its places that exists, project-relative; see linkPlaces) */
  linkTargets: ReadonlySet<string>;
  /**
   * Local link destinations that do not exist and that a pattern of the project's git ignore rules
   * names (`.gitignore` files, `.git/info/exclude`; not a folder on the way): files kept out of the
   * repository on purpose — a local configuration each user writes from an example — not missing ones.
   */
  gitIgnoredTargets: ReadonlySet<string>;
  /**
   * Local links of a SKILL.md (`<file>:<line>:<column>` of the destination) that do not land from
   * the skill but do from the folder of a repository file the skill names
   * (`docs/en/release-notes/changelog.md`): a link the skill shows the agent how to write in that
   * file, not a link of the skill's own.
   */
  linksForNamedFiles: ReadonlySet<string>;
  /**
   * Local links of a SKILL.md (`<file>:<line>:<column>`) of a skill in an agent's folder of the
   * project (`.claude/skills/`, `.agents/skills/`, `.github/skills/` …) that do not land from the skill
   * but do from the folder that holds the agent's folder: the project the skill works on, where the
   * agent runs (`docs/research/x.md` from `.agents/skills/plan/SKILL.md`).
   */
  linksFromProject: ReadonlySet<string>;
  /**
   * The places looked up for link destinations and for the paths SKILL.md names in prose, with
   * the path as the directory listings spell it: the place itself, the names on disk when it
   * exists only in another case (`Security.md` for `security.md`), or null when it does not exist.
   * Named paths are looked up when they lead into a folder of the skill, or name a file next to
   * SKILL.md.
   */
  pathsOnDisk: ReadonlyMap<string, string | null>;
}
