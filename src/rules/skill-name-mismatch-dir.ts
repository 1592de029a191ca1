import { defineRule } from '../engine/rule.js';
import { entryPlace, nameField } from './lib/frontmatter-fields.js';

export default defineRule({
  meta: {
    code: 'skill-name-mismatch-dir',
    defaultSeverity: 'error',
    certainty: 'definite',
    category: 'naming',
    description: 'Require the frontmatter name to equal the name of the skill directory',
    scope: 'skill',
    reference: 'improved',
    messages: {
      mismatch: {
        message: "name '{name}' does not match parent directory '{dir}'. The name field must match the directory name",
        help: 'Rename the directory to `{name}` or set `name: {dir}`.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const name = nameField(skill);
      if (!name || name.text === skill.dirName) continue;
      report({
        messageId: 'mismatch',
        data: { name: name.text, dir: skill.dirName },
        at: entryPlace(skill, name.entry),
        skill: skill.name,
      });
    }
  },
});
