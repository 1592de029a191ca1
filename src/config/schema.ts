/**
 * The `.loopkit.yaml` schema: every field of the configuration reference with its default,
 * plus loopkit's own additions (`rules`, `loop_state_files`).
 */
import * as z from 'zod';
import { TARGETS } from '../model/targets.js';
import { closest } from '../util/closest.js';
import { patternProblem } from './patterns.js';
import { isSharedConfig, PRESET_NAMES, SHARED_CONFIG } from './presets.js';

export const DEFAULT_STANDARD_VERBS = ['trigger', 'handoff', 'halt', 'call', 'wait', 'route', 'escalate', 'resume', 'notify', 'complete'];
export const DEFAULT_HALT_REASONS = ['stall', 'ambiguous', 'human-gate', 'unsafe', 'budget'];
export const DEFAULT_LOOP_SECTIONS = [
  'Entry Conditions',
  'Loop State Schema',
  'Single Iteration Step',
  'Proof of Progress',
  'State Transition Rule',
  'Halt Conditions',
  'Handoff Target',
];
export const DEFAULT_SKILL_SECTIONS = ['Description', 'Rules', 'State Model'];
export const DEFAULT_STATE_MODEL_ALIASES = ['State Model', 'The Loop', 'Loop States', 'States'];
export const DEFAULT_LOOP_STATE_FILES = [
  { path: 'docs/inception.loop.md', description: 'inception phase tracking' },
  { path: 'docs/iteration-board.loop.md', description: 'iteration governance tracking' },
];

/**
 * What a field that is preprocessed before validation accepts as written in the YAML file (an empty
 * value, a number for a string …). zod cannot see through a preprocess function, so each one
 * registers its input here; the JSON Schema of `.loopkit.yaml` (src/dev/json-schema.ts) is
 * generated from these schemas and the rest of the zod schema.
 */
export const writtenAs = z.registry<{ input: unknown }>();

const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** A string field: an empty YAML value (`key:`) is the empty string; a number is its text. */
const str = (def: string) =>
  z
    .preprocess(
      (v) => (v === null ? '' : typeof v === 'number' || typeof v === 'boolean' ? String(v) : v),
      z.string({ error: (iss) => `expected a string, got ${shown(iss.input)}` }),
    )
    .register(writtenAs, { input: z.union([scalar, z.null()]) })
    .default(def);

/** A list of strings: an empty YAML value (`key:`) is the empty list. */
const strList = (def: readonly string[]) =>
  z
    .preprocess(
      (v) => (v === null ? [] : v),
      z.array(
        z.preprocess((v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v), z.string({ error: 'expected a string' })),
        { error: 'expected a list of strings' },
      ),
    )
    .register(writtenAs, { input: z.union([z.array(scalar), z.null()]) })
    .default([...def]);

const shown = (v: unknown) => (typeof v === 'string' ? `'${v}'` : (JSON.stringify(v) ?? String(v)));

const wholeNumber = (iss: { input?: unknown }) => `expected a whole number from 0 to 4294967295, got ${shown(iss.input)}`;

const bool = z.boolean({ error: (iss) => `expected true or false, got ${shown(iss.input)}` }).default(false);

export const SEVERITY_SETTINGS = ['off', 'info', 'warning', 'warn', 'error'] as const;
export type SeveritySetting = (typeof SEVERITY_SETTINGS)[number];

/** Severity per rule, by code or alias (`rules:`, and `rules:` of an override); the codes are checked by the engine. */
const severityMap = () =>
  z
    .preprocess(
      (v) => (v === null ? {} : v),
      z.record(
        z.string(),
        z.enum(SEVERITY_SETTINGS, {
          error: 'expected one of off, info, warning, error',
        }),
        { error: 'expected a map of rule code to off | info | warning | error' },
      ),
    )
    .register(writtenAs, { input: z.union([z.record(z.string(), z.enum(SEVERITY_SETTINGS)), z.null()]) })
    .default({});

/** The keys of an `overrides:` entry (others are reported by config-unknown-key). */
export const OVERRIDE_KEYS: readonly string[] = ['files', 'rules', 'targets'];

/**
 * The loaders skills are written for (model/targets.ts): a name or a list of names; empty or absent:
 * detected per skill from where it sits. Each name is checked, with a suggestion.
 */
const targetList = () =>
  z
    .preprocess(
      (v) => (v === null ? [] : typeof v === 'string' ? [v] : v),
      z.array(
        z.string({ error: 'expected a target (string)' }).superRefine((t, ctx) => {
          if ((TARGETS as readonly string[]).includes(t)) return;
          const guess = closest(t, TARGETS);
          ctx.addIssue({
            code: 'custom',
            message: `unknown target '${t}'${guess ? `; did you mean '${guess}'?` : ''} (targets: ${TARGETS.join(', ')})`,
          });
        }),
        { error: 'expected a target or a list of targets' },
      ),
    )
    .register(writtenAs, { input: z.union([z.enum(TARGETS), z.array(z.enum(TARGETS)), z.null()]) })
    .default([]);

/**
 * A glob of project files, or a list of them (project-relative, `/` separated): an `overrides:`
 * entry's `files:`. Never empty: an entry that matches nothing is a mistake.
 */
const globList = z
  .preprocess(
    (v) => (typeof v === 'string' || typeof v === 'number' ? [String(v)] : v),
    z
      .array(z.string({ error: 'expected a glob (string)' }).min(1, 'a glob must not be empty'), {
        error: (iss) =>
          iss.input === undefined
            ? 'required: the glob, or list of globs, of the files the entry applies to'
            : 'expected a glob or a list of globs',
      })
      .min(1, 'expected at least one glob'),
  )
  .register(writtenAs, { input: z.union([z.string().min(1), z.number(), z.array(z.string().min(1)).min(1)]) });

/** One `overrides:` entry: severities for the files its globs match (a later entry wins). */
const overrideEntry = z.object(
  {
    files: globList,
    rules: severityMap(),
    // the targets of the skills whose SKILL.md the globs match (instead of the top level's, or the detected ones)
    targets: targetList(),
  },
  { error: 'expected an entry with files: (globs) and rules: (severity per rule)' },
);

const enforcedState = z
  .object({
    name: z.string({ error: 'expected a state name (string)' }).min(1, 'must not be empty'),
    agent: str(''),
    description: str(''),
  })
  .passthrough();

const stateFile = z.object({
  path: z.string({ error: 'expected a path (string)' }).min(1, 'must not be empty'),
  description: str(''),
});

/**
 * A path or glob, or a list of them (a lone value is a one-item list; an empty value is the project
 * root itself; a number is its text).
 */
const pathList = (def: readonly string[]) =>
  z
    .preprocess(
      (v) => {
        const one = (x: unknown) => (x === null ? '' : typeof x === 'number' ? String(x) : x);
        return Array.isArray(v) ? v.map(one) : [one(v)];
      },
      z.array(z.string({ error: 'expected a path or glob (string)' }), {
        error: 'expected a path, a glob, or a list of them',
      }),
    )
    .register(writtenAs, { input: z.union([z.string(), z.number(), z.null(), z.array(z.union([z.string(), z.number(), z.null()]))]) })
    .default([...def]);

/**
 * Ignore patterns (gitignore syntax, relative to the project root), a pattern or a list of them (an
 * empty value is none); each one checked where it is written.
 */
const patternList = z
  .preprocess(
    (v) => (v === null ? [] : typeof v === 'string' ? [v] : v),
    z.array(
      z.string({ error: 'expected a pattern (string)' }).superRefine((p, ctx) => {
        const problem = patternProblem(p);
        if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
      }),
      { error: 'expected a pattern or a list of patterns' },
    ),
  )
  .register(writtenAs, { input: z.union([z.string(), z.null(), z.array(z.string())]) })
  .default([]);

/**
 * Folders (or files) of agent definitions besides the places the loaders read (model/agents.ts):
 * project-relative, inside the project; a lone value is a one-item list.
 */
const agentPlaces = z
  .preprocess(
    (v) => (v === null ? [] : typeof v === 'string' ? [v] : v),
    z.array(
      z.string({ error: 'expected a folder or file of agent definitions (string)' }).superRefine((p, ctx) => {
        const parts = p.replace(/\\/gu, '/').split('/');
        if (p.trim() === '') ctx.addIssue({ code: 'custom', message: 'must not be empty' });
        else if (p.startsWith('/') || /^[a-z]:/iu.test(p) || parts.includes('..'))
          ctx.addIssue({
            code: 'custom',
            message: `'${p}' is not inside the project: name a folder relative to the project root, without '..'`,
          });
      }),
      { error: 'expected a folder or a list of folders of agent definitions' },
    ),
  )
  .register(writtenAs, { input: z.union([z.string(), z.null(), z.array(z.string())]) })
  .default([]);

/** An `extends:` entry as the JSON Schema describes it: a preset, or a shareable config (config/shared.ts). */
const extendsEntry = z.union([z.enum(PRESET_NAMES as [string, ...string[]]), z.string().regex(SHARED_CONFIG)]);

const configObject = z.object({
  // the presets (config/presets.ts) and shareable configs (config/shared.ts) this file builds on: a name or a list
  extends: z
    .preprocess(
      (v) => (typeof v === 'string' ? [v] : v === null ? [] : v),
      z.array(z.string({ error: 'expected a preset name (string)' }), { error: 'expected a preset name or a list of them' }),
    )
    .register(writtenAs, {
      input: z.union([extendsEntry, z.array(extendsEntry), z.null()]),
    })
    .default([]),
  // the plugins whose rules run with the core rules (api/plugins.ts): module specifiers, a path
  // relative to the config file (`./rules/acme.mjs`) or a package resolved from the project
  plugins: z
    .preprocess(
      (v) => (typeof v === 'string' ? [v] : v === null ? [] : v),
      z.array(z.string({ error: 'expected a module: a path (./rules/acme.mjs) or a package name (string)' }).min(1, 'must not be empty'), {
        error: 'expected a module or a list of modules',
      }),
    )
    .register(writtenAs, { input: z.union([z.string(), z.array(z.string()), z.null()]) })
    .default([]),
  skills_dir: pathList(['skills/']),
  ignores: patternList,
  max_iterations: z
    .number({ error: wholeNumber })
    .int({ error: wholeNumber })
    .min(0, { error: wholeNumber })
    .max(4294967295, { error: wholeNumber })
    .default(20),
  standard_verbs: strList(DEFAULT_STANDARD_VERBS),
  halt_reasons: strList(DEFAULT_HALT_REASONS),
  canonical_loop_sections: strList(DEFAULT_LOOP_SECTIONS),
  canonical_skill_sections: strList(DEFAULT_SKILL_SECTIONS),
  state_model_aliases: strList(DEFAULT_STATE_MODEL_ALIASES),
  enforced_states: z
    .preprocess((v) => (v === null ? [] : v), z.array(enforcedState, { error: 'expected a list of {name, agent, description} entries' }))
    .register(writtenAs, { input: z.union([z.array(enforcedState), z.null()]) })
    .default([]),
  deskcheck_enabled: bool,
  deskcheck_state: str(''),
  deskcheck_entry_from: str(''),
  deskcheck_feedback_to: str(''),
  deskcheck_forward_to: str(''),
  bug_feedback_enabled: bool,
  bug_feedback_qa_state: str(''),
  bug_feedback_acceptance_state: str(''),
  bug_feedback_return_to: str(''),
  // loopkit additions
  rules: severityMap(),
  // the loaders the skills are written for (model/targets.ts); empty: detected per skill
  targets: targetList(),
  // other places of agent definitions (discover/agents.ts)
  agents: agentPlaces,
  overrides: z
    .preprocess((v) => (v === null ? [] : v), z.array(overrideEntry, { error: 'expected a list of {files, rules} entries' }))
    .register(writtenAs, { input: z.union([z.array(overrideEntry), z.null()]) })
    .default([]),
  loop_state_files: z
    .preprocess((v) => (v === null ? [] : v), z.array(stateFile, { error: 'expected a list of {path, description} entries' }))
    .register(writtenAs, { input: z.union([z.array(stateFile), z.null()]) })
    .default(DEFAULT_LOOP_STATE_FILES.map((f) => ({ ...f }))),
});

export const configSchema = configObject.superRefine((c, ctx) => {
  c.extends.forEach((name, i) => {
    if (PRESET_NAMES.includes(name) || isSharedConfig(name)) return;
    const guess = closest(name, PRESET_NAMES);
    ctx.addIssue({
      code: 'custom',
      path: ['extends', ...(c.extends.length > 1 ? [i] : [])],
      message: `unknown preset '${name}'${guess ? `; did you mean '${guess}'?` : ''} (presets: ${PRESET_NAMES.join(', ')})`,
    });
  });
  const need = (enabled: boolean, switchKey: string, keys: (keyof typeof c)[]) => {
    if (!enabled) return;
    for (const k of keys) {
      if (c[k] === '') {
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: `must not be empty when ${switchKey} is true`,
        });
      }
    }
  };
  need(c.deskcheck_enabled, 'deskcheck_enabled', [
    'deskcheck_state',
    'deskcheck_entry_from',
    'deskcheck_feedback_to',
    'deskcheck_forward_to',
  ]);
  need(c.bug_feedback_enabled, 'bug_feedback_enabled', [
    'bug_feedback_qa_state',
    'bug_feedback_acceptance_state',
    'bug_feedback_return_to',
  ]);
});

export type Config = z.output<typeof configSchema>;
export type EnforcedState = Config['enforced_states'][number];
export type Override = Config['overrides'][number];

/** The object schema without the cross-field checks (for the JSON Schema). */
export const configFields = configObject;

/** The known top-level keys (for unknown-key warnings). */
export const CONFIG_KEYS: readonly string[] = Object.keys(configObject.shape);

/** Where each config value is written: dotted path (`enforced_states.0.name`) → place. */
export type ConfigPositions = ReadonlyMap<string, { line: number; column: number }>;

export function defaultConfig(): Config {
  return configSchema.parse({});
}
