import { defineRule } from '../engine/rule.js';
import { l1RigidEntry } from './lib/level.js';
import { hasSkillSection } from './lib/skill-sections.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-l1-missing-entry-conditions',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'completeness',
    reads: ['frontmatter', 'body'],
    local: true,
    description: 'Require a `## Entry Conditions` section in the SKILL.md of an L1-RIGID skill',
    scope: 'skill',
    reference: 'improved',
    messages: {
      missing: {
        message: "L1-RIGID skill `{skill}` is missing '## Entry Conditions' section",
        help: 'L1-RIGID skills must declare ## Entry Conditions directly in SKILL.md.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const level = l1RigidEntry(skill);
      if (level === undefined || hasSkillSection(skill, ['Entry Conditions'])) continue;
      report({
        messageId: 'missing',
        data: { skill: skill.name },
        at: { file: skill.skillFile.path, line: level.line, column: level.column },
        skill: skill.name,
      });
    }
  },
});
