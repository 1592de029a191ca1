import { CONFIG_FILE } from '../config/errors.js';
import { defineRule } from '../engine/rule.js';
import { missingSkillSectionEdits } from './lib/fix-skill-sections.js';
import { bodyStartPlace } from './lib/skill-places.js';
import { hasSkillSection, requiredSkillSections } from './lib/skill-sections.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-missing-section',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'completeness',
    reads: ['frontmatter', 'body'],
    local: true,
    description: 'Require the extra SKILL.md sections listed in `canonical_skill_sections`',
    scope: 'skill',
    reference: 'new',
    fixable: true,
    messages: {
      missing: {
        message: "Skill `{skill}` is missing '## {section}' section",
        help: "Add a '## {section}' section to SKILL.md; canonical_skill_sections in {config} requires it.",
      },
    },
  },
  check({ project, config, report }) {
    const { others } = requiredSkillSections(config);
    if (others.length === 0) return;
    const configFile = project.configFile ?? CONFIG_FILE;
    for (const skill of project.skills) {
      for (const section of others) {
        if (hasSkillSection(skill, [section])) continue;
        report({
          messageId: 'missing',
          data: { skill: skill.name, section, config: configFile },
          at: { file: skill.skillFile.path, ...bodyStartPlace(skill) },
          skill: skill.name,
          element: `missing section ${section}`,
        });
      }
    }
  },
  // --fix: a placeholder for each missing section at its canonical place
  fix: {
    kinds: ['skill'],
    fix({ file, facts, config, problems }) {
      const reported = new Set(problems.map((p) => String(p.data.section)));
      return missingSkillSectionEdits(file, facts, config, (c) => c.role === 'other' && reported.has(c.name));
    },
  },
});
