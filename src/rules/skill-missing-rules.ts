import { defineRule } from '../engine/rule.js';
import { missingSkillSectionEdits } from './lib/fix-skill-sections.js';
import { bodyStartPlace } from './lib/skill-places.js';
import { hasSkillSection, requiredSkillSections } from './lib/skill-sections.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-missing-rules',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'completeness',
    reads: ['frontmatter', 'body'],
    local: true,
    description: 'Require a `## Rules` section in SKILL.md',
    scope: 'skill',
    reference: 'improved',
    fixable: true,
    messages: {
      missing: {
        message: "Skill `{skill}` is missing '## Rules' section",
        help: 'Every SKILL.md must have a ## Rules section.',
      },
    },
  },
  check({ project, config, report }) {
    if (!requiredSkillSections(config).rules) return;
    for (const skill of project.skills) {
      if (hasSkillSection(skill, ['Rules'])) continue;
      report({
        messageId: 'missing',
        data: { skill: skill.name },
        at: { file: skill.skillFile.path, ...bodyStartPlace(skill) },
        skill: skill.name,
        element: 'missing section Rules',
      });
    }
  },
  // --fix: a placeholder '## Rules' where canonical_skill_sections puts it
  fix: {
    kinds: ['skill'],
    fix: ({ file, facts, config }) => missingSkillSectionEdits(file, facts, config, (c) => c.role === 'rules'),
  },
});
