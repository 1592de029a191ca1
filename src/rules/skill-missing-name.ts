import { defineRule } from '../engine/rule.js';

export default defineRule({
  meta: {
    code: 'skill-missing-name',
    defaultSeverity: 'error',
    certainty: 'definite',
    category: 'frontmatter',
    description: 'Require a non-empty `name` in the SKILL.md frontmatter',
    scope: 'skill',
    reference: 'improved',
    messages: {
      missing: {
        message: 'name field missing from frontmatter',
        help: 'Add `name: {dir}` to the frontmatter. Until then loopkit names the skill after its directory `{dir}`.',
      },
      invalid: {
        message: 'name field in frontmatter must be non-empty text',
        help: 'Write the skill name after `name:`, e.g. `name: {dir}`. Until then loopkit names the skill after its directory `{dir}`.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const fm = skill.frontmatter;
      // no, unclosed or broken frontmatter: skill-missing-frontmatter / skill-invalid-frontmatter
      if (fm === null || fm.endLine === null || fm.error) continue;
      const entry = fm.entries.find((e) => e.key === 'name');
      const file = skill.skillFile.path;
      const data = { dir: skill.dirName };
      if (entry === undefined) {
        report({ messageId: 'missing', data, at: { file, line: fm.endLine, column: 1 }, skill: skill.name });
      } else if (typeof entry.value !== 'string' || entry.value.trim() === '') {
        report({ messageId: 'invalid', data, at: { file, line: entry.line, column: entry.column }, skill: skill.name });
      }
    }
  },
});
