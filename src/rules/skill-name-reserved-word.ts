import { defineRule } from '../engine/rule.js';
import { entryPlace, nameField } from './lib/frontmatter-fields.js';

const RESERVED = ['anthropic', 'claude'] as const;

export default defineRule({
  meta: {
    code: 'skill-name-reserved-word',
    defaultSeverity: 'error',
    certainty: 'definite',
    category: 'frontmatter',
    description: "Disallow the reserved words 'anthropic' and 'claude' in the frontmatter name",
    scope: 'skill',
    reference: 'improved',
    messages: {
      reserved: {
        message: "name '{name}' contains reserved word '{word}'",
        help: "Skill names must not contain 'anthropic' or 'claude'. Name the skill after what it does.",
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const name = nameField(skill);
      if (!name) continue;
      const lower = name.text.toLowerCase();
      for (const word of RESERVED) {
        if (!lower.includes(word)) continue;
        report({ messageId: 'reserved', data: { name: name.text, word }, at: entryPlace(skill, name.entry), skill: skill.name });
      }
    }
  },
});
