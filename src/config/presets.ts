/**
 * Presets: what a project checks by default. A `.loopkit.yaml` names them with `extends:`, the
 * command line with `--preset`; without either, a project with a `.loopkit.yaml` or any LOOP.md contract
 * gets `loop-language` and any other project (a plain Agent Skills collection) `agent-skills`, whose
 * default set holds only what a user acts on; `strict` (opt-in) adds every other heuristic.
 *
 * A preset gives values to settings the config file does not write, severities to rules, and says
 * whether a heuristic rule (RuleMeta.certainty) may be an error. Everything the file writes wins.
 * How the severities combine is engine/severity.ts.
 */
import type { Config, SeveritySetting } from './schema.js';

export interface Preset {
  name: string;
  /** one line for --help, the docs and the note printed when it is chosen automatically */
  description: string;
  /**
   * where the config file writes no `skills_dir`: every SKILL.md of the project is a skill (true), or
   * the skills are in `skills/`, the reference's default (false)
   */
  skillsEverywhere: boolean;
  /** settings, used where the config file does not write the key */
  config: Partial<Config>;
  /**
   * rule severities beyond the defaults, used where the config file does not set the rule (not to
   * turn heuristic errors into warnings: `heuristicErrors` does that for every rule)
   */
  rules: Readonly<Record<string, SeveritySetting>>;
  /**
   * May a heuristic rule keep `error` as its severity? false: its error is a warning. (Where loopkit
   * chooses the preset itself, no heuristic is ever an error, whatever the preset says.)
   */
  heuristicErrors: boolean;
  /**
   * Do the loaders a skill is written for decide the severity of the rules that say what each loader
   * does (engine/severity.ts, step 4) where the targets are detected? Named targets (`targets:`,
   * `--target`) always do.
   */
  targets: boolean;
}

/** What a plain Agent Skills project does not check, and what it reads as suggestions only (agent-skills and strict). */
const AGENT_SKILLS_RULES: Readonly<Record<string, SeveritySetting>> = {
  // Loop Language conventions
  'constraints-empty-graph': 'off',
  // `## Rules` is a section of the Loop Language's SKILL.md contract: a plain skill may have two (held-out round 81)
  'skill-duplicate-rules': 'off',
  'skill-description-length': 'off',
  'xref-unknown-readme-skill': 'off',
  // best-practice recommendations, not the specification
  'skill-name-not-gerund': 'info',
  'skill-naming-inconsistent': 'info',
  // word heuristics: suggestions to read, not findings to fix (measured on public collections,
  // docs/accuracy.md: too often wrong to be warnings in projects that did not opt in)
  'skill-magic-numbers': 'info',
  'skill-term-inconsistency': 'info',
  'skill-missing-feedback-loop': 'info',
  'skill-missing-checklist': 'info',
  'skill-missing-conditionals': 'info',
  'skill-too-many-options': 'info',
  // suggestions about a skill's scripts (info by default, said here for strict)
  'skill-script-no-help': 'info',
  'skill-script-no-inline-deps': 'info',
  'skill-scripts-suggested': 'info',
};

/**
 * The heuristics outside the default set of agent-skills, on only in `strict`: below 90 % precision
 * on the held-out rounds (borderline counted as false), measured on too few labels or none, or
 * repeating another rule's finding. `npm run accuracy -- --heuristics` prints the figures
 * (scripts/heuristic-precision.mjs), docs/presets.md explains them, and test/presets.test.ts holds
 * this list to them.
 */
export const STRICT_ONLY: readonly string[] = [
  // below 90 % on the held-out rounds
  'skill-body-too-long',
  'skill-body-too-many-tokens',
  'skill-deep-file-reference',
  'skill-deep-reference',
  'skill-metadata-too-many-tokens',
  'skill-metadata-deep-nesting',
  'skill-description-missing-trigger',
  'skill-named-file-missing',
  'skill-orphan-reference',
  'skill-ref-missing-toc',
  'skill-unknown-frontmatter-key',
  // too few held-out labels to measure (fewer than 20)
  'skill-absolute-path',
  'skill-name-vague',
  'skill-punts-to-claude',
  'skill-reference-broken-link',
  'skill-time-sensitive',
  // never measured: suggestions (info) and heuristics no held-out round had a finding of
  'skill-description-not-third-person',
  'skill-license-file-missing',
  'skill-magic-numbers',
  'skill-missing-checklist',
  'skill-missing-conditionals',
  'skill-missing-feedback-loop',
  'skill-name-not-gerund',
  'skill-naming-inconsistent',
  'skill-script-no-help',
  'skill-script-no-inline-deps',
  'skill-scripts-suggested',
  'skill-term-inconsistency',
  'skill-too-many-options',
  'loop-nonstandard-verb',
  'state-undefined-in-graph',
  // at the guidance of 500 lines it reports only SKILL.md files skill-body-too-long reports
  'skill-no-progressive-disclosure',
];

/** The severity of a rule of STRICT_ONLY under strict: a suggestion stays one, anything else is a warning. */
const strictSeverity = (code: string): SeveritySetting => (AGENT_SKILLS_RULES[code] === 'info' ? 'info' : 'warn');

const AGENT_SKILLS_CONFIG: Partial<Config> = {
  // the Loop Language's own sections (Description, Rules, State Model) and forge's state files
  canonical_skill_sections: [],
  loop_state_files: [],
};

export const PRESETS: Readonly<Record<string, Preset>> = {
  'loop-language': {
    name: 'loop-language',
    description: 'Loop Language contracts: SKILL.md sections, LOOP.md, the state machine, plus the Agent Skills checks',
    skillsEverywhere: false,
    config: {},
    rules: {},
    // the reference's severities, for a project that chose the Loop Language
    heuristicErrors: true,
    targets: false,
  },
  'agent-skills': {
    name: 'agent-skills',
    description:
      'plain Agent Skills (agentskills.io specification and skill-authoring best practices), no Loop Language conventions; the heuristics measured at 90 % precision or more',
    skillsEverywhere: true,
    config: AGENT_SKILLS_CONFIG,
    rules: { ...AGENT_SKILLS_RULES, ...Object.fromEntries(STRICT_ONLY.map((code) => [code, 'off'])) },
    // only what loopkit is certain of fails a build (docs/accuracy.md: guesses from prose were wrong often enough)
    heuristicErrors: false,
    // an error is a promise that the loader the skill is written for rejects it
    targets: true,
  },
  strict: {
    name: 'strict',
    description: 'agent-skills with every heuristic on, those below 90 % measured precision too (docs/presets.md)',
    skillsEverywhere: true,
    config: AGENT_SKILLS_CONFIG,
    rules: { ...AGENT_SKILLS_RULES, ...Object.fromEntries(STRICT_ONLY.map((code) => [code, strictSeverity(code)])) },
    // more checks, not surer ones: a heuristic is still a warning at most
    heuristicErrors: false,
    targets: true,
  },
};

/** Do the presets check a plain Agent Skills collection (agent-skills or strict, and not loop-language)? */
export function plainAgentSkills(names: readonly string[]): boolean {
  return names.some((n) => n === 'agent-skills' || n === 'strict') && !names.includes('loop-language');
}

/** The presets a config can extend. */
export const PRESET_NAMES: readonly string[] = Object.keys(PRESETS);

/** Which preset a project gets when neither its config nor the command line names one. */
export function defaultPreset(hasConfigFile: boolean, hasLoop: boolean): string {
  return hasConfigFile || hasLoop ? 'loop-language' : 'agent-skills';
}

/** Do the presets (a later one wins) find skills everywhere where the config writes no `skills_dir`? */
export function skillsEverywhere(names: readonly string[]): boolean {
  const last = [...names].reverse().find((n) => PRESETS[n] !== undefined);
  return last !== undefined && PRESETS[last]!.skillsEverywhere;
}

/**
 * The config with the presets' settings applied (in order: a later preset wins over an earlier
 * one) where the file does not write the key. `written` tells whether the file writes a top-level
 * key. `rules` stays what the file writes: the presets' severities are engine/severity.ts's.
 */
export function applyPresets(config: Config, names: readonly string[], written: (key: string) => boolean): Config {
  const out: Config = { ...config };
  for (const name of names) {
    const preset = PRESETS[name];
    if (!preset) continue;
    for (const [key, value] of Object.entries(preset.config)) {
      if (!written(key)) (out as Record<string, unknown>)[key] = structuredClone(value);
    }
  }
  return out;
}

/**
 * Does an `extends:` entry name a shareable config (config/shared.ts) rather than a preset: a path
 * (`./team.yaml`), a scoped package (`@acme/loopkit-config`), a package file (`pkg/loopkit.yaml`), or a
 * package named `loopkit-config…`? Anything else is a preset name (an unknown one is an error with a
 * suggestion).
 */
export function isSharedConfig(name: string): boolean {
  return SHARED_CONFIG.test(name);
}

/** What isSharedConfig tests (also the pattern of the JSON Schema). */
export const SHARED_CONFIG = /^(?:\.{1,2}\/|\/|@|loopkit-config)|\/|\.(?:ya?ml|json)$/;
