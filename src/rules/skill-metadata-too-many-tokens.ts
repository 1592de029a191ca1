import { defineRule } from '../engine/rule.js';
import { DESCRIPTION_MAX, descriptionField, entryPlace, nameField, usableFrontmatter, userInvokedOnly } from './lib/frontmatter-fields.js';
import { charLength } from '../util/text.js';

const MAX_TOKENS = 100;

export default defineRule({
  meta: {
    code: 'skill-metadata-too-many-tokens',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'structure',
    description: 'Limit name + description to about 100 tokens (Agent Skills guidance)',
    scope: 'skill',
    reference: 'improved',
    messages: {
      tooMany: {
        message:
          'name + description is ~{tokens} tokens (recommended: ~100). Agents load this for every skill at startup. Shorten the description',
        help: 'Say what the skill does and when to use it in one or two sentences; move the rest into the body.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      // a skill only the user invokes is not loaded at start-up
      if (!usableFrontmatter(skill) || userInvokedOnly(skill)) continue;
      const name = nameField(skill);
      const description = descriptionField(skill);
      // a description over the specification's limit is skill-description-too-long's (one mistake, one report)
      if (description && charLength(description.text) > DESCRIPTION_MAX) continue;
      // estimate: one token per 4 characters, plus 10 characters of framing
      const tokens = Math.floor((charLength(name?.text ?? skill.name) + charLength(description?.text ?? '') + 10) / 4);
      if (tokens <= MAX_TOKENS) continue;
      const entry = description?.entry ?? name?.entry;
      const at = entry ? entryPlace(skill, entry) : { file: skill.skillFile.path, line: 1, column: 1 };
      report({ messageId: 'tooMany', data: { tokens }, at, skill: skill.name });
    }
  },
});
