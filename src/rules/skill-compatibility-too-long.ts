import { defineRule } from '../engine/rule.js';
import { entryPlace, textField } from './lib/frontmatter-fields.js';
import { charLength } from '../util/text.js';
import { DOCS } from './lib/loaders.js';

const MAX = 500;

export default defineRule({
  meta: {
    code: 'skill-compatibility-too-long',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: {
      spec: { does: 'rejects', source: DOCS.specCompatibility, note: '1-500 characters if provided' },
      'claude-code': { does: 'ignores', source: DOCS.claudeCode, note: 'no compatibility field' },
      copilot: { does: 'ignores', source: DOCS.copilot, note: 'no compatibility field' },
    },
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Limit the frontmatter compatibility field to 500 characters (Agent Skills)',
    scope: 'skill',
    reference: 'improved',
    messages: {
      tooLong: {
        message: 'compatibility field exceeds 500 characters ({len} chars)',
        help: 'Agent Skills allows 1-500 characters: name the products, system packages or network access the skill needs.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const c = textField(skill, 'compatibility', true);
      if (!c) continue;
      const len = charLength(c.text);
      if (len <= MAX) continue;
      report({ messageId: 'tooLong', data: { len }, at: entryPlace(skill, c.entry), skill: skill.name });
    }
  },
});
