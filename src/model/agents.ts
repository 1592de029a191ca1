/**
 * Agents: the files that define who takes over a handoff (`handoff <skill> to <agent>`), and the
 * plugin manifests that name skill and agent paths. Read once with positions (parse/agent.ts,
 * parse/manifest.ts); rules only read this model.
 *
 * What is read of an agent file, by its loader:
 * - opencode (`.opencode/agent/*.md`, `.opencode/agents/*.md`; https://opencode.ai/docs/agents/):
 *   the name is the file's name; `permission.skill` maps skill names or globs (`*`, `?`) to
 *   `allow`, `deny` or `ask`, in written order, and the last rule that matches a skill decides
 *   (https://opencode.ai/docs/permissions/). A string instead of the map applies to every skill;
 *   no `permission.skill` at all allows every skill (opencode's default is `allow`).
 * - Claude Code (`.claude/agents/*.md`, a plugin's `agents/`;
 *   https://code.claude.com/docs/en/sub-agents): the name is frontmatter `name` (else the file's
 *   name); `skills:` lists the skills the subagent loads — subagents do not inherit the session's
 *   skills. Without `skills:` what it may load is unknown to loopkit (nothing is reported).
 * Nothing else of an agent file is read (its model, tools, prompt).
 */
import type { Frontmatter } from './types.js';
import type { SkillTargets } from './targets.js';

/** The loaders loopkit reads agent files of. */
export type AgentLoader = 'opencode' | 'claude-code';

export type SkillAction = 'allow' | 'deny' | 'ask';

/** One rule of an opencode agent's `permission.skill`, where it is written. */
export interface SkillRule {
  /** the skill name or glob as written (`*` any characters, `?` one) */
  pattern: string;
  action: SkillAction;
  line: number;
  column: number;
}

/** A skill an agent names (`skills:` of a Claude Code subagent), where it is written. */
export interface NamedSkill {
  name: string;
  line: number;
  column: number;
}

export interface AgentDef {
  /** the name handoffs use */
  name: string;
  /** project-relative path of the file */
  file: string;
  /** the loader whose format the file is written in */
  loader: AgentLoader;
  /** the loaders the file is written for and those that also read it (for the severity of its findings) */
  loaders: SkillTargets;
  /** the frontmatter as a strict YAML loader reads it (with its error, if any) */
  frontmatter: Frontmatter | null;
  /** the strict parse failed and the fields were read as opencode reads them (its lenient fallback) */
  lenient: boolean;
  /**
   * opencode: the `permission.skill` rules in written order (a string value is one rule for `*`);
   * null when the agent writes none (every skill allowed)
   */
  skillRules: readonly SkillRule[] | null;
  /** Claude Code: the `skills:` list; null when the agent writes none */
  preload: readonly NamedSkill[] | null;
  /** where the agent says which skills it may load (`skill:` under `permission:`, or `skills:`): the witness of a denial */
  permissionAt: { line: number; column: number } | null;
}

/** A path a plugin manifest names (`skills`, `agents`, `commands` of plugin.json; `source` of a marketplace entry). */
export interface ManifestPath {
  /** the manifest field (`skills`, `agents`, `commands`, `plugins.0.source`) */
  field: string;
  /** the path as written */
  path: string;
  /** project-relative place it names (null: it leaves the project or is no relative path) */
  place: string | null;
  /** the place exists */
  exists: boolean;
  line: number;
  column: number;
}

export interface PluginManifest {
  /** project-relative path of the manifest */
  file: string;
  kind: 'plugin' | 'marketplace';
  /** the folder the manifest describes (the plugin's or marketplace's root), project-relative ('' = the root) */
  root: string;
  paths: readonly ManifestPath[];
  /**
   * the names a plugin goes by, with its folder (project-relative): a plugin manifest's `name`; a
   * marketplace's `plugins[].name` with the folder its relative `source` names. Claude Code calls a
   * plugin's skill `<plugin>:<skill>`.
   */
  plugins?: readonly { name: string; place: string }[];
  /** the JSON did not parse: nothing else was read */
  error?: { message: string; line: number; column: number };
}

/** Does an opencode pattern (`*` any characters, `?` one character, the rest literal) match the name? */
export function wildcardMatch(name: string, pattern: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/gu, '\\$&')
    .replace(/\*/gu, '.*')
    .replace(/\?/gu, '.');
  return new RegExp(`^${re}$`, 'su').test(name);
}

/** What an agent does with a skill it is handed. */
export interface SkillAccess {
  /** `allowed`: it loads it; `denied`: it may not; `unknown`: its file does not say */
  verdict: 'allowed' | 'denied' | 'unknown';
  /** the rule that decides (opencode), when one does */
  rule?: SkillRule;
}

/**
 * May the agent load the skill, as its author meant it? opencode: a rule that allows the skill by
 * its exact name anywhere in `permission.skill` allows it, whatever its place (an allow written
 * before a catch-all `"*": deny` is what its author meant; that opencode lets the later catch-all
 * win is agent-permission-shadowed's finding, reported once at the agent); otherwise the last rule
 * that matches decides, and no rule that matches leaves opencode's default (`ask`, a prompt, not a
 * denial). Claude Code: the skill is in `skills:`; no `skills:` list: unknown.
 */
export function skillAccess(agent: AgentDef, skill: string): SkillAccess {
  if (agent.loader === 'claude-code') {
    if (agent.preload === null) return { verdict: 'unknown' };
    return { verdict: agent.preload.some((s) => s.name === skill) ? 'allowed' : 'denied' };
  }
  const rules = agent.skillRules;
  if (rules === null) return { verdict: 'allowed' };
  const named = rules.find((r) => r.pattern === skill && r.action === 'allow');
  if (named) return { verdict: 'allowed', rule: named };
  const last = rules.findLast((r) => wildcardMatch(skill, r.pattern));
  if (last === undefined) return { verdict: 'unknown' };
  return { verdict: last.action === 'deny' ? 'denied' : 'allowed', rule: last };
}

/**
 * The allows of an opencode agent by name that a later rule overrides: the last rule that matches
 * the name (a catch-all `*`, a glob) is written after it and denies or asks. opencode lets the last
 * matching rule win, so the allow never applies. Each with the rule that shadows it.
 */
export function shadowedAllows(agent: AgentDef): { allow: SkillRule; by: SkillRule }[] {
  const rules = agent.skillRules ?? [];
  const out: { allow: SkillRule; by: SkillRule }[] = [];
  rules.forEach((r, i) => {
    if (r.action !== 'allow' || /[*?]/u.test(r.pattern)) return;
    const last = rules.slice(i + 1).findLast((later) => wildcardMatch(r.pattern, later.pattern));
    if (last !== undefined && last.action !== 'allow') out.push({ allow: r, by: last });
  });
  return out;
}

/** The agent that takes a handoff, by name (the first defined, in path order). */
export function agentNamed(agents: readonly AgentDef[], name: string): AgentDef | undefined {
  return agents.find((a) => a.name === name);
}

/** A handoff to every agent (the Loop Language's broadcast), not to one agent file. */
export const ALL_AGENTS = 'all-agents';

/** The loaders of a plugin manifest: Claude Code's alone installs plugins. */
const MANIFEST_LOADERS: SkillTargets = {
  targets: ['claude-code'],
  alsoReadBy: [],
  why: 'a Claude Code plugin manifest',
  named: false,
  always: true,
};

/**
 * The loaders that decide the severity of a finding in a file (engine/severity.ts): an agent file's
 * or a manifest's own; null when the file is neither (then the skill's that holds it).
 */
export function agentFileLoaders(agents: readonly AgentDef[], manifests: readonly PluginManifest[], file: string): SkillTargets | null {
  const agent = agents.find((a) => a.file === file);
  if (agent) return agent.loaders;
  return manifests.some((m) => m.file === file) ? MANIFEST_LOADERS : null;
}

/** What a handoff's agent makes of the skill it is handed, for the servers' answers (MCP `next`/`step`, the picture). */
export interface HandoffAgent {
  /** `allowed`/`denied`/`unknown` as skillAccess; `undefined-agent`: no agent file of the project has the name; `all-agents`: the broadcast; `no-agents`: the project defines none */
  mayLoad: 'allowed' | 'denied' | 'unknown' | 'undefined-agent' | 'all-agents' | 'no-agents';
  /** the agent's file, when the project defines it */
  file?: string;
}

export function handoffAgent(agents: readonly AgentDef[], skill: string, agentName: string): HandoffAgent {
  if (agentName === ALL_AGENTS) return { mayLoad: 'all-agents' };
  if (agents.length === 0) return { mayLoad: 'no-agents' };
  const agent = agentNamed(agents, agentName);
  if (agent === undefined) return { mayLoad: 'undefined-agent' };
  return { mayLoad: skillAccess(agent, skill).verdict, file: agent.file };
}
