import { defineRule } from '../engine/rule.js';
import { entryPlace, nameField } from './lib/frontmatter-fields.js';

export default defineRule({
  meta: {
    code: 'skill-name-consecutive-hyphens',
    defaultSeverity: 'error',
    certainty: 'definite',
    category: 'naming',
    description: "Disallow '--' in the frontmatter name",
    scope: 'skill',
    reference: 'improved',
    messages: {
      consecutive: { message: "name '{name}' contains consecutive hyphens. Names must not contain '--'" },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const name = nameField(skill);
      if (!name || !name.text.includes('--')) continue;
      report({ messageId: 'consecutive', data: { name: name.text }, at: entryPlace(skill, name.entry), skill: skill.name });
    }
  },
});
