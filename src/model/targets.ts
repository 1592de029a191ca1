/**
 * Targets: the loaders a skill is written for. A finding of a definite rule is an error only where a
 * loader the skill is written for rejects the condition or silently skips the skill; where only a
 * loader that also reads the skill's folder would (GitHub Copilot reads `.claude/skills/` too), it is
 * a warning that the skill is not portable to it; where no loader that reads the skill cares, it is
 * nothing (engine/severity.ts). Each rule states what each loader does (RuleMeta.loaders), with the
 * documentation it comes from.
 *
 * A skill's targets come from where it sits and the manifests around it (detectTargets), unless the
 * configuration (`targets:`, also in `overrides:`) or the command line (`--target`) names them.
 */
import { isAgentFolder, placeHolder, skillsFoldersOf, skillsHolder } from './skill-dir.js';

export const TARGETS = ['claude-code', 'copilot', 'codex', 'claude-api', 'openclaw', 'spec'] as const;
export type Target = (typeof TARGETS)[number];

export interface TargetInfo {
  /** the loader as messages name it */
  label: string;
  /** where its documentation of skills is */
  docs: string;
  /** one line: what it is */
  about: string;
}

export const TARGET_INFO: Readonly<Record<Target, TargetInfo>> = {
  'claude-code': {
    label: 'Claude Code',
    docs: 'https://code.claude.com/docs/en/skills#frontmatter-reference',
    about: 'Claude Code: `.claude/skills/`, plugins (`.claude-plugin/plugin.json`) and plugin marketplaces',
  },
  copilot: {
    label: 'GitHub Copilot',
    docs: 'https://docs.github.com/en/copilot/how-tos/use-copilot-agents/cloud-agent/create-skills',
    about:
      'GitHub Copilot (cloud agent, Copilot CLI, agent mode in VS Code): `.github/skills/`; it also reads `.claude/skills/` and `.agents/skills/`',
  },
  codex: {
    label: 'OpenAI Codex',
    docs: 'https://developers.openai.com/codex/skills',
    about: 'OpenAI Codex (CLI, IDE extension, app): `.agents/skills/`, `.codex/skills/`, Codex plugins (`.codex-plugin/plugin.json`)',
  },
  'claude-api': {
    label: 'the Claude API and claude.ai skill upload',
    docs: 'https://platform.claude.com/docs/en/agents-and-tools/agent-skills/overview#skill-structure',
    about: 'the Claude API and claude.ai: a skill uploaded as a zip, validated on upload',
  },
  openclaw: {
    label: 'OpenClaw',
    docs: 'https://docs.openclaw.ai/tools/skills',
    about: 'OpenClaw: a workspace’s `skills/` (`.openclaw/` beside it; sub-folders group skills) and plugins (`openclaw.plugin.json`)',
  },
  spec: {
    label: 'the Agent Skills specification',
    docs: 'https://agentskills.io/specification',
    about: 'the Agent Skills specification (agentskills.io), the portable baseline every loader builds on; its validator is skills-ref',
  },
};

/**
 * Every loader a rule's table may name: the targets of skills, and opencode, which loopkit judges
 * only as the loader of agent files (model/agents.ts): `.opencode/agent/*.md` and their
 * `permission.skill` rules. It is no target of skills (`targets:` does not take it).
 */
export const LOADERS = [...TARGETS, 'opencode'] as const;
export type Loader = (typeof LOADERS)[number];

export const LOADER_INFO: Readonly<Record<Loader, TargetInfo>> = {
  ...TARGET_INFO,
  opencode: {
    label: 'OpenCode',
    docs: 'https://opencode.ai/docs/agents/',
    about: 'OpenCode: agents in `.opencode/agent/` (`permission.skill` allows or denies skills by name or glob)',
  },
};

/** Is `name` a target? */
export function isTarget(name: string): name is Target {
  return (TARGETS as readonly string[]).includes(name);
}

/**
 * What a loader does with the condition a rule reports:
 * - `rejects`: its documentation requires or forbids it — a skill that breaks it is refused, or not
 *   loaded as written (an upload fails, a required field is missing);
 * - `drops`: it skips the skill without a word;
 * - `accepts`: it loads the skill as the author meant it (the documentation gives a default, or
 *   says the form is fine);
 * - `ignores`: it does not read what the rule is about.
 * A loader whose documentation says nothing of the condition is left out of the table: it is
 * treated as not caring (a finding needs a reason).
 */
export type LoaderVerdict = 'rejects' | 'drops' | 'accepts' | 'ignores';

export interface LoaderEntry {
  does: LoaderVerdict;
  /** the page that says so (default: the target's documentation of skills, TARGET_INFO) */
  source?: string;
  /** what exactly it says, in a few words ("name defaults to the folder's name") */
  note?: string;
}

/**
 * A rule's per-loader table (RuleMeta.loaders), or `every`: the condition breaks the skill whatever
 * loads it (a link to a file that does not exist, a Loop Language contract) and targets do not
 * change the rule's severity.
 */
export type LoaderTable = Partial<Record<Loader, LoaderEntry>> | 'every';

/** Does the loader's verdict fail the skill (an error where it is a target)? */
export function fails(entry: LoaderEntry | undefined): boolean {
  return entry !== undefined && (entry.does === 'rejects' || entry.does === 'drops');
}

/** A skill's loaders: those it is written for, those that also read its folder, and why. */
export interface SkillTargets {
  /** the loaders the skill is written for: a condition one of them rejects is an error */
  targets: readonly Loader[];
  /** loaders that also read the skill where it is: a condition only they reject makes it not portable (a warning) */
  alsoReadBy: readonly Loader[];
  /** why, for --verbose and --print-config: `.claude/skills/`, `--target`, `.loopkit.yaml targets:` */
  why: string;
  /** the targets were named (configuration or command line), not detected */
  named: boolean;
  /**
   * The loaders of an agent file or a plugin manifest (model/agents.ts): they decide the severity
   * under every preset — the rules of these files are new, there is no reference severity to keep.
   */
  always?: boolean;
}

/** What `detectTargets` needs to know of the files around a skill: does the project-relative path exist? */
export type HasFile = (path: string) => boolean;

/** The loaders loopkit knows the rules of, besides the specification. */
export const ALL_LOADERS: readonly Target[] = ['claude-code', 'copilot', 'codex', 'claude-api', 'openclaw'];

/** The folders that hold a project folder, nearest first ('' = the project root). */
export function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; d !== '';) {
    const i = d.lastIndexOf('/');
    d = i < 0 ? '' : d.slice(0, i);
    out.push(d);
  }
  return out;
}

export const inFolder = (folder: string, file: string) => (folder === '' ? file : `${folder}/${file}`);

/** What says a repository is worked on with GitHub Copilot: its customization files (docs.github.com, "Customize Copilot"). */
const COPILOT_SIGNS: readonly string[] = [
  '.github/copilot-instructions.md',
  '.github/instructions',
  '.github/prompts',
  '.github/agents',
  '.github/chatmodes',
  '.github/skills',
];

/**
 * The first file or folder of GitHub Copilot's customizations (COPILOT_SIGNS) in the project folder
 * `folder` or above it, project-relative; null when there is none: a repository nobody works on with
 * Copilot, where what only Copilot rejects in `.claude/skills/` is nothing to act on (held-out round 59).
 */
export function copilotSign(folder: string, has: HasFile): string | null {
  for (const f of [folder, ...ancestors(folder)]) {
    for (const sign of COPILOT_SIGNS) if (has(inFolder(f, sign))) return inFolder(f, sign);
  }
  return null;
}

/**
 * The loaders a skill is written for, from where its folder `dir` (project-relative) sits and the
 * manifests above it:
 * - a `.claude/skills/` folder: Claude Code (GitHub Copilot reads it too, where the repository shows
 *   it is worked on with Copilot: copilotSign);
 * - a `.github/skills/` folder: GitHub Copilot;
 * - an `.agents/skills/` folder: Codex (GitHub Copilot reads it too, likewise); `.codex/skills/`: Codex;
 * - a folder below a Claude Code plugin or marketplace (`.claude-plugin/plugin.json` or
 *   `.claude-plugin/marketplace.json` in a folder above, or a `.claude-plugin/` folder of any content):
 *   Claude Code, which alone installs plugins;
 *   below a Codex plugin or marketplace (`.codex-plugin/plugin.json`, `.agents/plugins/marketplace.json`): Codex;
 * - the `skills/` folder of an OpenClaw workspace (`.openclaw/` beside it), or a folder below an
 *   OpenClaw plugin (`openclaw.plugin.json`): OpenClaw;
 * - anywhere else: the specification, the portable baseline — a collection anyone may install with
 *   any loader, so every loader reads it.
 * The nearest of these wins: a `.claude/skills/` folder inside a Codex plugin is Claude Code's.
 */
export function detectTargets(dir: string, has: HasFile): SkillTargets {
  // the nearest `<place>/skills` pair above the skill's folder
  for (const folder of skillsFoldersOf(dir)) {
    const { place, at } = folder;
    // GitHub Copilot reads `.claude/skills/` and `.agents/skills/` too: in a repository worked on with it
    const copilot = (): { alsoReadBy: Target[]; why: string } => {
      const sign = copilotSign(placeHolder(folder), has);
      return sign === null
        ? { alsoReadBy: [], why: `in ${at}` }
        : { alsoReadBy: ['copilot'], why: `in ${at}, and GitHub Copilot reads it: ${sign} is there` };
    };
    if (place === '.claude') return { targets: ['claude-code'], ...copilot(), named: false };
    if (place === '.github') return { targets: ['copilot'], alsoReadBy: [], why: `in ${at}`, named: false };
    if (place === '.agents') return { targets: ['codex'], ...copilot(), named: false };
    if (place === '.codex') return { targets: ['codex'], alsoReadBy: [], why: `in ${at}`, named: false };
    // an OpenClaw workspace: its `skills/` beside the workspace's `.openclaw/` state, read by OpenClaw alone
    const workspace = inFolder(skillsHolder(folder), '.openclaw');
    if (!isAgentFolder(place) && has(workspace)) {
      return { targets: ['openclaw'], alsoReadBy: [], why: `in ${at}: an OpenClaw workspace (${workspace}/ is there)`, named: false };
    }
    // any other agent's own folder (`.cursor/skills/`, `.gemini/skills/`, `.devin/skills/`): that agent
    // alone reads it, as the specification says; no other loader installs or uploads from there
    if (isAgentFolder(place)) {
      return { targets: ['spec'], alsoReadBy: [], why: `in ${at}: another agent's folder, read as the specification says`, named: false };
    }
  }
  for (const folder of ancestors(dir)) {
    const found: Target[] = [];
    const manifests: string[] = [];
    for (const [target, files] of [
      // a `.claude-plugin/` folder of any content: the manifest is optional to Claude Code (plugins reference),
      // and a folder kept for it says whom the skills are written for (held-out round 83: a misnamed manifest.json)
      ['claude-code', ['.claude-plugin/plugin.json', '.claude-plugin/marketplace.json', '.claude-plugin']],
      ['codex', ['.codex-plugin/plugin.json', '.agents/plugins/marketplace.json']],
      ['openclaw', ['openclaw.plugin.json']],
    ] as const) {
      const manifest = files.map((f) => inFolder(folder, f)).find(has);
      if (manifest !== undefined) {
        found.push(target);
        manifests.push(manifest);
      }
    }
    if (found.length > 0) return { targets: found, alsoReadBy: [], why: `below ${manifests.join(' and ')}`, named: false };
  }
  return {
    targets: ['spec'],
    alsoReadBy: ALL_LOADERS,
    why: 'in no loader’s folder and below no plugin manifest: a portable collection',
    named: false,
  };
}

/** The loaders that load a SKILL.md below another skill's folder: the others read `<skills>/<name>/SKILL.md`. */
const LOADS_NESTED: readonly Loader[] = ['codex'];

/**
 * The loaders of a skill inside another skill's folder: a sub-skill that the skill around it links
 * and reads as its part, kept where a loader that loads every SKILL.md of its folder (Codex) finds it
 * too. It is written for no loader as a skill of its own, and read on its own by the loaders of its
 * place: what they reject of it is a warning, `not portable` to them (held-out round 83: a router
 * skill's nameless sub-skills). Named targets stand.
 */
export function asPart(detected: SkillTargets, parent: string): SkillTargets {
  if (detected.named) return detected;
  const readers = [...detected.targets, ...detected.alsoReadBy].filter((t) => LOADS_NESTED.includes(t));
  return {
    targets: [],
    alsoReadBy: readers,
    why: `it sits in the folder of the skill ${parent}/, as its part${readers.length > 0 ? `, and ${loaderList(readers)} ${readers.length === 1 ? 'loads' : 'load'} it as a skill of its own too` : ''}`,
    named: false,
  };
}

/**
 * A skill's loaders where the configuration or the command line names the targets: the named ones,
 * and the loaders that read its folder besides them (the folder's readers when it is a loader's
 * folder; none for any other folder, whose readers the names replace).
 */
export function namedTargets(named: readonly Target[], detected: SkillTargets, why: string): SkillTargets {
  const readers = detected.targets.includes('spec') ? [] : [...detected.targets, ...detected.alsoReadBy];
  return {
    targets: [...named],
    alsoReadBy: readers.filter((t) => !(named as readonly Loader[]).includes(t)),
    why,
    named: true,
  };
}

/** `Claude Code and GitHub Copilot` */
export function loaderList(targets: readonly Loader[]): string {
  const labels = targets.map((t) => LOADER_INFO[t].label);
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

/**
 * What the loaders do with a rule's condition, as a sentence for a finding's hint: `GitHub Copilot
 * rejects it.`, `Claude Code skips the skill without a word.`
 */
export function loaderSentence(table: Partial<Record<Loader, LoaderEntry>>, loaders: readonly Loader[]): string {
  const rejecting = loaders.filter((t) => table[t]?.does === 'rejects');
  const dropping = loaders.filter((t) => table[t]?.does === 'drops');
  const parts: string[] = [];
  if (rejecting.length > 0) parts.push(`${loaderList(rejecting)} ${rejecting.length === 1 ? 'rejects' : 'reject'} it`);
  if (dropping.length > 0) parts.push(`${loaderList(dropping)} ${dropping.length === 1 ? 'skips' : 'skip'} the skill without a word`);
  const sentence = parts.join('; ');
  return sentence === '' ? '' : `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}
