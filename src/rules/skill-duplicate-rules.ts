import { defineRule } from '../engine/rule.js';
import { skillSections } from './lib/skill-sections.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-duplicate-rules',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'completeness',
    reads: ['frontmatter', 'body'],
    local: true,
    description: 'Disallow more than one `## Rules` section in SKILL.md',
    scope: 'skill',
    reference: 'improved',
    messages: {
      duplicate: {
        message: "Skill `{skill}` has {count} '## Rules' sections (duplicate).",
        help: 'Merge duplicate ## Rules sections into one.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const rules = skillSections(skill, 'Rules');
      if (rules.length < 2) continue;
      const file = skill.skillFile.path;
      const [first, second] = [rules[0]!, rules[1]!];
      report({
        messageId: 'duplicate',
        data: { skill: skill.name, count: rules.length },
        at: { file, line: second.line, column: second.column },
        skill: skill.name,
        related: [{ message: 'first ## Rules section', file, line: first.line, column: first.column }],
      });
    }
  },
});
