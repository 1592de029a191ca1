import { defineRule } from '../engine/rule.js';
import { closest } from '../util/closest.js';
import { entryPlace, usableFrontmatter } from './lib/frontmatter-fields.js';
import { FRONTMATTER_KEYS } from './lib/frontmatter-keys.js';

/** Top-level SKILL.md keys that some agent or loopkit itself reads (docs/rules/skill-unknown-frontmatter-key.md). */
const KNOWN_FRONTMATTER_KEYS: readonly string[] = FRONTMATTER_KEYS.map((k) => k.key);

const KNOWN = new Set(KNOWN_FRONTMATTER_KEYS);
/** The Loop Language's own keys: suggested for a typo only in projects that use the Loop Language. */
const LOOP_KEYS = new Set(['level', 'owner', 'trigger']);

export default defineRule({
  meta: {
    code: 'skill-unknown-frontmatter-key',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Check that top-level frontmatter keys are ones that agents read, or x- extensions',
    scope: 'skill',
    reference: 'improved',
    messages: {
      unknown: {
        message: "Unknown frontmatter key '{key}'. Use only spec-defined keys or prefix custom keys with 'x-'",
        help: 'Put custom data under `metadata:` (string keys and values) or rename the key to `x-{key}`.',
      },
      typo: {
        message: "Unknown frontmatter key '{key}'. Use only spec-defined keys or prefix custom keys with 'x-'",
        help: "Did you mean '{suggestion}'?",
      },
    },
  },
  check({ project, report }) {
    // `triggers:` (a list of phrases) in a plain Agent Skills project is not a misspelt Loop Language `trigger:`
    const candidates = project.presets.includes('loop-language')
      ? KNOWN_FRONTMATTER_KEYS
      : KNOWN_FRONTMATTER_KEYS.filter((k) => !LOOP_KEYS.has(k));
    for (const skill of project.skills) {
      for (const e of usableFrontmatter(skill)?.entries ?? []) {
        if (KNOWN.has(e.key) || e.key.startsWith('x-')) continue;
        const suggestion = closest(e.key, candidates);
        report({
          messageId: suggestion ? 'typo' : 'unknown',
          data: suggestion ? { key: e.key, suggestion } : { key: e.key },
          at: entryPlace(skill, e),
          skill: skill.name,
        });
      }
    }
  },
});
