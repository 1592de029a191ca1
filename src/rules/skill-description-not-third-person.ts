import { defineRule } from '../engine/rule.js';
import { descriptionField, entryPlace } from './lib/frontmatter-fields.js';

/** Opens with I / you / we as a word, or a contraction of them (I'm, you'll, we've, …); not a name such as You.com. */
const FIRST_OR_SECOND = /^(i|you|we)(?:['’](?:m|ll|ve|d|re))?(?=[\s,;:!?]|\.(?!\p{L})|$)/iu;

/**
 * The description opens with a list of what a user says, glossed as the user's after a dash or colon
 * ("I'm stuck, I have no ideas, I'm blocked — user unable to make progress. …"): the first person is
 * the user's, quoted as triggers, not the skill speaking. A list of two commas or more, in its first
 * sentence.
 */
const USER_PHRASES = /^[^.。!?]*,[^.。!?]*,[^.。!?—–:]*(?:\s[—–-]\s?|—|–|:)\s*(?:(?:a|the|when|whenever|if)\s+){0,2}users?\b/iu;

export default defineRule({
  meta: {
    code: 'skill-description-not-third-person',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Require the frontmatter description to be written in the third person',
    scope: 'skill',
    reference: 'improved',
    messages: {
      person: {
        message: "description appears to use first/second person. Use third person: 'Processes...' not 'I can...'",
        help: 'The description opens with `{word}`. It is read by an agent choosing among skills; describe what the skill does.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const d = descriptionField(skill);
      const m = d ? FIRST_OR_SECOND.exec(d.text) : null;
      if (!d || !m || USER_PHRASES.test(d.text)) continue;
      report({ messageId: 'person', data: { word: m[0] }, at: entryPlace(skill, d.entry), skill: skill.name });
    }
  },
});
