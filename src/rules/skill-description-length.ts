import { defineRule } from '../engine/rule.js';
import { DESCRIPTION_MAX, descriptionField, entryPlace } from './lib/frontmatter-fields.js';
import { charLength } from '../util/text.js';

const MIN = 10;
const MAX = 200;

export default defineRule({
  meta: {
    code: 'skill-description-length',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Check the frontmatter description against the Loop Language guidance of 10-200 characters',
    scope: 'skill',
    reference: 'new',
    messages: {
      tooShort: {
        message: 'description is {len} characters long; the Loop Language asks for 10–200 characters',
        help: 'Say what the skill does and when an agent should use it.',
      },
      tooLong: {
        message: 'description is {len} characters long; the Loop Language asks for 10–200 characters',
        help: 'Agents read every description at startup. Keep what the skill does and when to use it; move detail into the body.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const d = descriptionField(skill);
      if (!d) continue;
      const len = charLength(d.text);
      // above DESCRIPTION_MAX, skill-description-too-long reports it (one mistake, one report)
      const messageId = len < MIN ? 'tooShort' : len > MAX && len <= DESCRIPTION_MAX ? 'tooLong' : null;
      if (messageId === null) continue;
      report({ messageId, data: { len }, at: entryPlace(skill, d.entry), skill: skill.name });
    }
  },
});
