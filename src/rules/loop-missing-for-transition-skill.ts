import { defineRule } from '../engine/rule.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'loop-missing-for-transition-skill',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'completeness',
    reads: ['frontmatter', 'loop'],
    local: true,
    description: 'Require a LOOP.md for a skill whose transitions come from a legacy HANDOFFS.md',
    scope: 'skill',
    reference: 'improved',
    messages: {
      missing: {
        message: 'Skill `{skill}` defines transition rules but has no LOOP.md',
        help: 'Skills with transition rules should have a LOOP.md defining entry conditions, proof of progress, and halt conditions.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const legacy = skill.legacyHandoffs;
      if (legacy === null) continue;
      const first = legacy.transitions[0];
      report({
        messageId: 'missing',
        data: { skill: skill.name },
        at: { file: legacy.file.path, line: first?.line ?? 1, column: first?.column ?? 1 },
        skill: skill.name,
      });
    }
  },
});
