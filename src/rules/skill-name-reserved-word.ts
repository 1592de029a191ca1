import { defineRule } from '../engine/rule.js';
import { RESERVED_NAME_WORDS } from '../util/naming.js';
import { entryPlace } from './lib/frontmatter-fields.js';
import { nameAdvice, writtenName } from './lib/name-advice.js';
import { DOCS } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-name-reserved-word',
    defaultSeverity: 'error',
    certainty: 'definite',
    subject: 'name',
    loaders: {
      'claude-api': { does: 'rejects', source: DOCS.claudeApi, note: 'cannot contain reserved words: "anthropic", "claude"' },
    },
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: "Disallow the reserved words 'anthropic' and 'claude' in the frontmatter name",
    scope: 'skill',
    reference: 'improved',
    messages: {
      reserved: {
        message: "name '{name}' contains reserved word '{word}'",
        help: "Skill names must not contain 'anthropic' or 'claude'. Name the skill after what it does: {advice}.",
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const name = writtenName(skill);
      if (!name) continue;
      const lower = name.text.toLowerCase();
      for (const word of RESERVED_NAME_WORDS) {
        if (!lower.includes(word)) continue;
        report({
          messageId: 'reserved',
          data: { name: name.text, word, advice: nameAdvice(name.text, skill) },
          at: entryPlace(skill, name.entry),
          skill: skill.name,
        });
      }
    }
  },
});
