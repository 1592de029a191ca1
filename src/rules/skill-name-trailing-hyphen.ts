import { defineRule } from '../engine/rule.js';
import { entryPlace, nameField } from './lib/frontmatter-fields.js';

export default defineRule({
  meta: {
    code: 'skill-name-trailing-hyphen',
    defaultSeverity: 'error',
    certainty: 'definite',
    category: 'naming',
    description: 'Disallow a hyphen at the end of the frontmatter name',
    scope: 'skill',
    reference: 'improved',
    messages: {
      trailing: { message: "name '{name}' ends with a hyphen. Names must not end with a hyphen" },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const name = nameField(skill);
      if (!name || !name.text.endsWith('-')) continue;
      report({ messageId: 'trailing', data: { name: name.text }, at: entryPlace(skill, name.entry), skill: skill.name });
    }
  },
});
