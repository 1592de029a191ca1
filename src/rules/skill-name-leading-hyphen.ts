import { defineRule } from '../engine/rule.js';
import { entryPlace } from './lib/frontmatter-fields.js';
import { kebabCharsName, nameAdvice } from './lib/name-advice.js';
import { NAME_HYPHENS } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-name-leading-hyphen',
    defaultSeverity: 'error',
    certainty: 'definite',
    subject: 'name',
    loaders: NAME_HYPHENS,
    category: 'naming',
    reads: ['frontmatter'],
    local: true,
    description: 'Disallow a hyphen at the start of the frontmatter name',
    scope: 'skill',
    reference: 'improved',
    messages: {
      leading: {
        message: "name '{name}' starts with a hyphen. Names must not start with a hyphen",
        help: 'A name is lower-case words joined by single hyphens: {advice}.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const name = kebabCharsName(skill);
      if (!name || !name.text.startsWith('-')) continue;
      report({
        messageId: 'leading',
        data: { name: name.text, advice: nameAdvice(name.text, skill) },
        at: entryPlace(skill, name.entry),
        skill: skill.name,
      });
    }
  },
});
