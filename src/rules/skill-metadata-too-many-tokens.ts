import { basename, dirname } from 'node:path';
import { defineRule } from '../engine/rule.js';
import { DESCRIPTION_MAX, descriptionField, entryPlace, nameField, usableFrontmatter, userInvokedOnly } from './lib/frontmatter-fields.js';
import { charLength } from '../util/text.js';
import { ENCODING, tokensOver } from '../util/tokens.js';

/** The Agent Skills guidance: name + description are "~100 tokens" (agentskills.io/specification, Progressive disclosure). */
export const GUIDANCE_TOKENS = 100;
/**
 * Reported when well past it: more than 10 % over. A count made with cl100k_base is an estimate of
 * Claude's (unpublished) tokenizer, and the guidance is approximate; of the judged findings at
 * 101–110 tokens nearly all were borderline, past 110 true (docs/presets.md).
 */
export const REPORTED_OVER = 110;

/** What the file part found: the token count of name + description, when over the limit. */
interface Counted {
  tokens: number;
}

export default defineRule<'tooMany', Counted>({
  meta: {
    code: 'skill-metadata-too-many-tokens',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'structure',
    reads: ['frontmatter'],
    local: true,
    description: 'Limit name + description to about 100 tokens (Agent Skills guidance; reported past 110)',
    scope: 'skill',
    reference: 'improved',
    messages: {
      tooMany: {
        message:
          'name + description is ~{tokens} tokens (recommended: ~100). Agents load this for every skill at startup. Shorten the description',
        help: `Say what the skill does and when to use it in one or two sentences; move the rest into the body (tokens counted with ${ENCODING}).`,
      },
    },
  },
  // the count is made in the per-file phase (its outcome is cached), and only for a text over 110 bytes
  file: {
    kinds: ['skill'],
    check({ file, facts }) {
      const holder = { frontmatter: facts.skill?.frontmatter ?? null };
      if (!usableFrontmatter(holder)) return undefined;
      // the skill's name is its folder's when the frontmatter has none
      const name = nameField(holder)?.text ?? basename(dirname(file.path));
      const description = descriptionField(holder)?.text ?? '';
      // as an agent reads them: the two frontmatter lines
      const tokens = tokensOver(`name: ${name}\ndescription: ${description}`, REPORTED_OVER);
      return tokens === null ? undefined : { tokens };
    },
  },
  check({ project, fileData, report }) {
    for (const skill of project.skills) {
      // a skill only the user invokes is not loaded at start-up
      if (!usableFrontmatter(skill) || userInvokedOnly(skill)) continue;
      const counted = fileData(skill.skillFile.path);
      if (!counted) continue;
      const description = descriptionField(skill);
      // a description over the specification's limit is skill-description-too-long's (one mistake, one report)
      if (description && charLength(description.text) > DESCRIPTION_MAX) continue;
      const entry = description?.entry ?? nameField(skill)?.entry;
      const at = entry ? entryPlace(skill, entry) : { file: skill.skillFile.path, line: 1, column: 1 };
      report({ messageId: 'tooMany', data: { tokens: counted.tokens }, at, skill: skill.name });
    }
  },
});
