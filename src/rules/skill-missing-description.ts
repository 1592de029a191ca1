import { defineRule } from '../engine/rule.js';
import { missingSkillSectionEdits } from './lib/fix-skill-sections.js';
import { bodyStartPlace } from './lib/skill-places.js';
import { hasSkillSection, requiredSkillSections } from './lib/skill-sections.js';
import { requiredField } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-missing-description',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: requiredField('description', 'the first paragraph of the body when omitted'),
    category: 'completeness',
    reads: ['frontmatter', 'body'],
    local: true,
    description: 'Require a `## Description` section and a non-empty `description` frontmatter field in SKILL.md',
    scope: 'skill',
    reference: 'improved',
    fixable: true,
    messages: {
      section: {
        message: "Skill `{skill}` is missing '## Description' section",
        help: 'Every SKILL.md must have a ## Description section.',
      },
      field: {
        message: 'description field missing from frontmatter',
        help: 'Add `description:` to the frontmatter: what the skill does and when to use it (agents read it to decide whether to activate the skill).',
      },
      fieldInvalid: {
        message: 'description field in frontmatter must be non-empty text',
        help: 'Write what the skill does and when to use it after `description:`.',
      },
    },
  },
  check({ project, config, report }) {
    const needSection = requiredSkillSections(config).description;
    for (const skill of project.skills) {
      const file = skill.skillFile.path;
      const fm = skill.frontmatter;
      // the field: only judged in a readable frontmatter (others report a missing/broken one)
      if (fm !== null && fm.endLine !== null && !fm.error) {
        const entry = fm.entries.find((e) => e.key === 'description');
        if (entry === undefined) {
          report({ messageId: 'field', at: { file, line: fm.endLine, column: 1 }, skill: skill.name });
        } else if (typeof entry.value !== 'string' || entry.value.trim() === '') {
          report({ messageId: 'fieldInvalid', at: { file, line: entry.line, column: entry.column }, skill: skill.name });
        }
      }
      if (needSection && !hasSkillSection(skill, ['Description'])) {
        report({
          messageId: 'section',
          data: { skill: skill.name },
          at: { file, ...bodyStartPlace(skill) },
          skill: skill.name,
          element: 'missing section Description',
        });
      }
    }
  },
  // --fix: a placeholder '## Description' at its canonical place (the frontmatter field is prose: not fixed)
  fix: {
    kinds: ['skill'],
    messages: ['section'],
    fix: ({ file, facts, config }) => missingSkillSectionEdits(file, facts, config, (c) => c.role === 'description'),
  },
});
