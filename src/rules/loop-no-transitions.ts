import { defineRule, forEachSkill } from '../engine/rule.js';
import { TRANSITION_SECTION_KEY } from './lib/loop-sections.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'loop-no-transitions',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'language',
    reads: ['frontmatter', 'loop'],
    local: true,
    description: 'Require a State Transition Rule section of LOOP.md to contain at least one transition',
    scope: 'skill',
    reference: 'improved',
    messages: {
      none: {
        message: 'State Transition Rule section in LOOP.md for `{skill}` has no transition directives',
        help: 'Add transition directives using: transition <from> → <to>',
      },
    },
  },
  check({ project, report }) {
    forEachSkill(project, (skill) => {
      const loop = skill.loop;
      if (!loop) return;
      for (const section of loop.sections) {
        if (section.key !== TRANSITION_SECTION_KEY) continue;
        const inside = loop.transitions.some((t) => t.line > section.line && t.line <= section.endLine);
        if (inside) continue;
        report({
          messageId: 'none',
          data: { skill: skill.name },
          at: { file: loop.file.path, line: section.line, column: section.column },
          skill: skill.name,
        });
      }
    });
  },
});
