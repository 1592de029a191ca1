import { defineRule } from '../engine/rule.js';
import { entryPlace } from './lib/frontmatter-fields.js';
import { kebabCharsName, nameAdvice } from './lib/name-advice.js';
import { NAME_HYPHENS } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-name-consecutive-hyphens',
    defaultSeverity: 'error',
    certainty: 'definite',
    subject: 'name',
    loaders: NAME_HYPHENS,
    category: 'naming',
    reads: ['frontmatter'],
    local: true,
    description: "Disallow '--' in the frontmatter name",
    scope: 'skill',
    reference: 'improved',
    messages: {
      consecutive: {
        message: "name '{name}' contains consecutive hyphens. Names must not contain '--'",
        help: 'A name is lower-case words joined by single hyphens: {advice}.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const name = kebabCharsName(skill);
      if (!name || !name.text.includes('--')) continue;
      report({
        messageId: 'consecutive',
        data: { name: name.text, advice: nameAdvice(name.text, skill) },
        at: entryPlace(skill, name.entry),
        skill: skill.name,
      });
    }
  },
});
