import { defineRule } from '../engine/rule.js';
import { SKILL_NAME_MAX } from '../util/naming.js';
import { charLength } from '../util/text.js';
import { entryPlace } from './lib/frontmatter-fields.js';
import { nameAdvice, writtenName } from './lib/name-advice.js';
import { DOCS, OPENCLAW_NAME } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-name-too-long',
    defaultSeverity: 'error',
    certainty: 'definite',
    subject: 'name',
    loaders: {
      spec: { does: 'rejects', source: DOCS.specName, note: '1-64 characters' },
      'claude-code': { does: 'rejects', source: DOCS.claudeCode, note: 'max 64 characters' },
      codex: {
        does: 'drops',
        source: 'https://github.com/activeloopai/hivemind/pull/322',
        note: 'Codex skips the skill: "invalid name: exceeds maximum length of 64 characters"',
      },
      'claude-api': { does: 'rejects', source: DOCS.claudeApi, note: 'maximum 64 characters' },
      openclaw: OPENCLAW_NAME,
    },
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Limit the frontmatter name to 64 characters (Agent Skills)',
    scope: 'skill',
    reference: 'improved',
    messages: {
      tooLong: {
        message: "name '{name}' exceeds 64 characters ({len} chars)",
        help: 'Agent Skills names are 1-64 characters: {advice}.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const name = writtenName(skill);
      if (!name) continue;
      const len = charLength(name.text);
      if (len <= SKILL_NAME_MAX) continue;
      report({
        messageId: 'tooLong',
        data: { name: name.text, len, advice: nameAdvice(name.text, skill) },
        at: entryPlace(skill, name.entry),
        skill: skill.name,
      });
    }
  },
});
