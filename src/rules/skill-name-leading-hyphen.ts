import { defineRule } from '../engine/rule.js';
import { entryPlace, nameField } from './lib/frontmatter-fields.js';

export default defineRule({
  meta: {
    code: 'skill-name-leading-hyphen',
    defaultSeverity: 'error',
    certainty: 'definite',
    category: 'naming',
    description: 'Disallow a hyphen at the start of the frontmatter name',
    scope: 'skill',
    reference: 'improved',
    messages: {
      leading: { message: "name '{name}' starts with a hyphen. Names must not start with a hyphen" },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const name = nameField(skill);
      if (!name || !name.text.startsWith('-')) continue;
      report({ messageId: 'leading', data: { name: name.text }, at: entryPlace(skill, name.entry), skill: skill.name });
    }
  },
});
