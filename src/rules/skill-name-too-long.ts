import { defineRule } from '../engine/rule.js';
import { entryPlace, nameField } from './lib/frontmatter-fields.js';
import { charLength } from '../util/text.js';

const MAX = 64;

export default defineRule({
  meta: {
    code: 'skill-name-too-long',
    defaultSeverity: 'error',
    certainty: 'definite',
    category: 'frontmatter',
    description: 'Limit the frontmatter name to 64 characters (Agent Skills)',
    scope: 'skill',
    reference: 'improved',
    messages: {
      tooLong: {
        message: "name '{name}' exceeds 64 characters ({len} chars)",
        help: 'Agent Skills names are 1-64 characters. Shorten the name (and rename the directory to match).',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const name = nameField(skill);
      if (!name) continue;
      const len = charLength(name.text);
      if (len <= MAX) continue;
      report({ messageId: 'tooLong', data: { name: name.text, len }, at: entryPlace(skill, name.entry), skill: skill.name });
    }
  },
});
