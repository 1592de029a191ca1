import { defineRule } from '../engine/rule.js';
import { missingSkillSectionEdits } from './lib/fix-skill-sections.js';
import { bodyStartPlace } from './lib/skill-places.js';
import { hasSkillSection, requiredSkillSections } from './lib/skill-sections.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-missing-state-model',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'completeness',
    reads: ['frontmatter', 'body'],
    local: true,
    description: 'Require a state model section (`## State Model` or one of its aliases) in SKILL.md',
    scope: 'skill',
    reference: 'improved',
    fixable: true,
    messages: {
      missing: {
        message: 'Skill `{skill}` is missing a state model section. Expected one of: {aliases}',
        help: 'Every SKILL.md must define a state model under one of: {aliases}.',
      },
    },
  },
  check({ project, config, report }) {
    if (!requiredSkillSections(config).stateModel) return;
    const aliases = config.state_model_aliases.length > 0 ? config.state_model_aliases : ['State Model'];
    for (const skill of project.skills) {
      if (hasSkillSection(skill, aliases)) continue;
      report({
        messageId: 'missing',
        data: { skill: skill.name, aliases: aliases.join(', ') },
        at: { file: skill.skillFile.path, ...bodyStartPlace(skill) },
        skill: skill.name,
        element: 'missing section State Model',
      });
    }
  },
  // --fix: a placeholder state model section (named as canonical_skill_sections names it) at its canonical place
  fix: {
    kinds: ['skill'],
    fix: ({ file, facts, config }) => missingSkillSectionEdits(file, facts, config, (c) => c.role === 'stateModel'),
  },
});
