/**
 * The JSON Schema of `.loopkit.yaml`, generated from the zod schema (src/config/schema.ts) with
 * zod's `z.toJSONSchema` — never written by hand. Written to schema/loopkit.schema.json by
 * `npm run docs` (scripts/build-docs.mjs) and shipped in the package; test/schema.test.ts fails
 * when the file is out of date. Editors with YAML language support read it through the
 * `# yaml-language-server: $schema=…` comment that `loopkit init` writes.
 *
 * What the generator adds to zod's output, all of it from code: what a preprocessed field accepts
 * as written (`writtenAs`), the defaults, a description of every key, the rule codes and aliases
 * `rules:` accepts, and `additionalProperties: false` at the top level (loopkit warns about
 * unknown keys: config-unknown-key).
 */
import * as z from 'zod';
import type { Rule } from '../engine/rule.js';
import { CONFIG_KEYS, configFields, writtenAs } from '../config/schema.js';

/** One line per key, shown by editors on hover (kept in step with the README table by test/schema.test.ts). */
export const KEY_DESCRIPTIONS: Readonly<Record<string, string>> = {
  extends:
    'The preset(s) this file builds on: loop-language (Loop Language contracts) or agent-skills (plain Agent Skills); or shareable configs: a YAML or JSON file of the project (./team/loopkit.yaml) or a package installed in it (@acme/loopkit-config), whose settings apply where this file writes none.',
  plugins:
    "Plugins whose rules run with the core rules: a module path relative to the project root (./loopkit-rules/acme.mjs) or a package name installed in the project (loopkit-plugin-acme). A plugin's rule codes are <plugin>/<rule>, set like any other in rules: and overrides:. Loading a plugin runs its code (the MCP server never does). docs/api.md.",
  skills_dir:
    'Where skills live, relative to the project root: a path, a glob, or a list of them. Default: every SKILL.md of the project with the agent-skills preset (and without a .loopkit.yaml), skills/ with loop-language. A SKILL.md found outside is an error (skill-outside-skills-dir) unless ignored.',
  ignores:
    'Folders and files not to look for skills in: .gitignore patterns relative to the project root (a pattern or a list); `!pattern` re-includes what .gitignore or the defaults (node_modules/, build output, tests and fixtures, _ folders) ignore.',
  agents:
    'Folders (or .md files) of agent definitions besides the places the loaders read (.opencode/agent/, .claude/agents/, agents/): a path or a list, relative to the project root and inside it. Handoffs are checked against these agents.',
  max_iterations: 'Budget of the simulation: every entry state must reach a terminal state within this many transitions.',
  standard_verbs: 'The verb vocabulary of numbered steps in LOOP.md (loop-nonstandard-verb).',
  halt_reasons: 'The declared halt reasons (loop-unknown-halt).',
  canonical_loop_sections: 'Required LOOP.md sections, in canonical order.',
  canonical_skill_sections: 'Required SKILL.md sections; State Model is satisfied by any of state_model_aliases.',
  state_model_aliases: 'Headings that count as the state model section of SKILL.md.',
  enforced_states: 'States that must appear in the graph; also the only one-word states allowed.',
  deskcheck_enabled: 'Check the desk-check pattern (the four deskcheck_* fields must then be non-empty).',
  deskcheck_state: 'The desk-check state; checked once it appears in the graph.',
  deskcheck_entry_from: 'entry_from → deskcheck_state must exist.',
  deskcheck_feedback_to: 'deskcheck_state → feedback_to must exist.',
  deskcheck_forward_to: 'deskcheck_state → forward_to must exist.',
  bug_feedback_enabled: 'Check the bug-feedback loops (the three bug_feedback_* fields must then be non-empty).',
  bug_feedback_qa_state: 'QA state that must lead back to bug_feedback_return_to.',
  bug_feedback_acceptance_state: 'Acceptance state that must lead back to bug_feedback_return_to.',
  bug_feedback_return_to: 'The state bugs go back to (usually the development state).',
  rules: 'Severity per rule, by code or alias: off, info, warning (or warn), error.',
  overrides:
    'Severities and targets for some files: a list of {files, rules, targets} entries; files is a glob or a list of globs of project-relative paths, rules a map of rule code to severity, targets the loaders of the skills whose SKILL.md the globs match. A later entry wins, and every entry over rules and targets.',
  targets:
    'The loaders the skills are written for: claude-code, copilot, codex, claude-api, openclaw, spec (a name or a list). Default: detected per skill from where it sits (.claude/skills, .github/skills, .agents/skills, an OpenClaw workspace’s skills, plugin manifests; elsewhere spec). A condition a target rejects is an error, one only another loader that reads the skill rejects a warning (not portable). See docs/targets.md.',
  loop_state_files: 'Loop state files that must exist in the project ({path, description}); [] turns the check off.',
};

type Json = Record<string, unknown>;

const TARGET = 'draft-07' as const;

/** zod's JSON Schema of a schema, with the additions above applied to every node. */
function generate(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, {
    target: TARGET,
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema: node, jsonSchema }) => {
      const zodSchema = node as unknown as z.ZodType;
      const json = jsonSchema as Json;
      const written = writtenAs.get(zodSchema) as { input: z.ZodType } | undefined;
      if (written) {
        const input = generate(written.input);
        delete input.$schema;
        for (const k of Object.keys(json)) if (k !== 'description' && k !== 'default') delete json[k];
        Object.assign(json, input);
      }
      if ((zodSchema._zod.def as { type: string }).type === 'default') json.default = zodSchema.parse(undefined);
    },
  }) as Json;
  return out;
}

/** The schema as the file holds it (2-space JSON, final newline). */
export function configJsonSchemaText(rules: readonly Rule[]): string {
  return `${JSON.stringify(configJsonSchema(rules), null, 2)}\n`;
}

export function configJsonSchema(rules: readonly Rule[]): Json {
  const schema = generate(configFields);
  const properties = schema.properties as Record<string, Json>;
  for (const key of CONFIG_KEYS) {
    const description = KEY_DESCRIPTIONS[key];
    if (description === undefined) throw new Error(`KEY_DESCRIPTIONS has no description of '${key}'`);
    properties[key] = { description, ...properties[key] };
  }
  // without skills_dir, loopkit looks in every common layout (the description says so), not only skills/
  delete properties.skills_dir!.default;
  // `rules:` takes a rule code or alias
  const names = rules.flatMap((r) => [r.meta.code, ...(r.meta.aliases ?? [])]).sort();
  const ruleNames = (rulesSchema: Json) => {
    for (const branch of (rulesSchema.anyOf as Json[] | undefined) ?? [rulesSchema]) {
      if (branch.type === 'object') branch.propertyNames = { enum: names };
    }
  };
  ruleNames(properties.rules!);
  // an overrides: entry's rules: too, and its keys are files, rules and targets only (config-unknown-key)
  for (const branch of (properties.overrides!.anyOf as Json[] | undefined) ?? [properties.overrides!]) {
    const entry = branch.type === 'array' ? (branch.items as Json) : undefined;
    if (!entry) continue;
    ruleNames((entry.properties as Record<string, Json>).rules!);
    entry.additionalProperties = false;
  }
  return {
    $schema: schema.$schema,
    title: '.loopkit.yaml',
    description: 'Configuration of loopkit, the linter of agent skill contracts (SKILL.md + LOOP.md). Every key is optional.',
    type: 'object',
    properties,
    additionalProperties: false,
  };
}
