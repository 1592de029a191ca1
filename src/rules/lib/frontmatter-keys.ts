/**
 * The top-level SKILL.md frontmatter keys that some agent or loopkit itself reads, with what each
 * means (docs/rules/skill-unknown-frontmatter-key.md): the rule that reports unknown keys and the
 * editor's completion and hover share this one list.
 */
export interface FrontmatterKey {
  key: string;
  /** who reads it */
  source: 'Agent Skills' | 'Loop Language' | 'Claude Code' | 'Devin CLI' | 'registries';
  meaning: string;
}

export const FRONTMATTER_KEYS: readonly FrontmatterKey[] = [
  // Agent Skills specification (agentskills.io)
  {
    key: 'name',
    source: 'Agent Skills',
    meaning: "The skill's name: lower-case kebab-case, at most 64 characters, the same as its folder.",
  },
  {
    key: 'description',
    source: 'Agent Skills',
    meaning: 'What the skill does and when to use it (third person, at most 1024 characters): agents read it to choose the skill.',
  },
  { key: 'license', source: 'Agent Skills', meaning: 'The license the skill is shared under (a name, or a file bundled with the skill).' },
  {
    key: 'compatibility',
    source: 'Agent Skills',
    meaning: 'What the skill needs to run (products, system packages, network), at most 500 characters.',
  },
  {
    key: 'metadata',
    source: 'Agent Skills',
    meaning: 'Further properties as a map of string keys to string values (`category`, `version` …).',
  },
  {
    key: 'allowed-tools',
    source: 'Agent Skills',
    meaning: 'Tools the skill may use without asking (space-separated; experimental in the specification).',
  },
  // loopkit / Loop Language
  {
    key: 'level',
    source: 'Loop Language',
    meaning: "The skill's level in the Loop Language (L1 skills declare entry and halt conditions).",
  },
  { key: 'owner', source: 'Loop Language', meaning: 'Who maintains the skill.' },
  { key: 'trigger', source: 'Loop Language', meaning: 'The event that starts the skill.' },
  // Claude Code skill extensions
  { key: 'when_to_use', source: 'Claude Code', meaning: 'When Claude should use the skill, added to the description.' },
  { key: 'argument-hint', source: 'Claude Code', meaning: 'The arguments the skill expects, shown when it is invoked with /name.' },
  { key: 'arguments', source: 'Claude Code', meaning: 'Named arguments of the skill.' },
  {
    key: 'disable-model-invocation',
    source: 'Claude Code',
    meaning: 'true: only the user invokes the skill (the model never chooses it).',
  },
  { key: 'disallowed-tools', source: 'Claude Code', meaning: 'Tools the skill must not use.' },
  { key: 'user-invocable', source: 'Claude Code', meaning: 'false: the skill is hidden from the / menu.' },
  { key: 'model', source: 'Claude Code', meaning: 'The model that runs the skill.' },
  { key: 'effort', source: 'Claude Code', meaning: 'The reasoning effort the skill runs with.' },
  { key: 'context', source: 'Claude Code', meaning: '`fork`: the skill runs in a sub-agent with its own context.' },
  { key: 'agent', source: 'Claude Code', meaning: 'The sub-agent type that runs a forked skill.' },
  { key: 'hooks', source: 'Claude Code', meaning: 'Hooks that run while the skill is active.' },
  { key: 'paths', source: 'Claude Code', meaning: 'File globs: the skill is offered when the work touches matching files.' },
  { key: 'shell', source: 'Claude Code', meaning: "The shell the skill's commands run in." },
  // Devin CLI skill extensions (docs.devin.ai/cli/extensibility/skills/creating-skills; it also reads
  // argument-hint, model, agent and allowed-tools, listed above)
  { key: 'subagent', source: 'Devin CLI', meaning: 'true: the skill runs as a subagent instead of inline.' },
  { key: 'permissions', source: 'Devin CLI', meaning: 'Permission overrides for the skill (`allow`, `deny`, `ask` lists).' },
  { key: 'triggers', source: 'Devin CLI', meaning: 'Who may invoke the skill: a list of `user` and `model` (default both).' },
  // common in published skills, read by skill registries (e.g. goose)
  { key: 'version', source: 'registries', meaning: "The skill's version, read by skill registries." },
  // packages the skill needs, which claude.ai installs (Anthropic's "creating custom skills" page)
  { key: 'dependencies', source: 'registries', meaning: 'Packages the skill needs, which claude.ai installs.' },
  // the skill's website, shown by OpenClaw's skills UI
  { key: 'homepage', source: 'registries', meaning: "The skill's website." },
];
