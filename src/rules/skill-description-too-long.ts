import { defineRule } from '../engine/rule.js';
import { DESCRIPTION_MAX, descriptionField, entryPlace } from './lib/frontmatter-fields.js';
import { charLength } from '../util/text.js';
import { DOCS } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-description-too-long',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: {
      spec: { does: 'rejects', source: DOCS.specDescription, note: '1-1024 characters' },
      'claude-code': { does: 'accepts', source: DOCS.claudeCode, note: 'a long description is truncated in the skill listing' },
      codex: {
        does: 'drops',
        source: 'https://github.com/garrytan/gstack/issues/281',
        note: 'Codex skips the skill: "invalid description: exceeds maximum length of 1024 characters"',
      },
      'claude-api': { does: 'rejects', source: DOCS.claudeApi, note: 'maximum 1024 characters' },
      openclaw: { does: 'accepts', source: DOCS.openclawLoader, note: 'no limit on the description: the skill loads' },
    },
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Limit the frontmatter description to 1024 characters (Agent Skills)',
    scope: 'skill',
    reference: 'improved',
    messages: {
      tooLong: {
        message: 'description exceeds 1024 characters ({len} chars)',
        help: 'Agent Skills descriptions are 1-1024 characters. Keep what the skill does and when to use it; move the rest into the body.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const d = descriptionField(skill);
      if (!d) continue;
      const len = charLength(d.text);
      if (len <= DESCRIPTION_MAX) continue;
      report({ messageId: 'tooLong', data: { len }, at: entryPlace(skill, d.entry), skill: skill.name });
    }
  },
});
