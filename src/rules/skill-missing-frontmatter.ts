import { defineRule } from '../engine/rule.js';

export default defineRule({
  meta: {
    code: 'skill-missing-frontmatter',
    defaultSeverity: 'error',
    certainty: 'definite',
    category: 'frontmatter',
    description: 'Require SKILL.md to open with a closed `---` frontmatter block',
    scope: 'skill',
    reference: 'improved',
    messages: {
      missing: {
        message: 'SKILL.md must start with YAML frontmatter (---)',
        help: 'Start SKILL.md with a `---` line, then `name:` and `description:`, then a closing `---` line.',
      },
      unclosed: {
        message: 'SKILL.md frontmatter opened with --- on line 1 is never closed',
        help: 'Add a line containing only `---` after the last frontmatter key. Until then loopkit reads no frontmatter key and names the skill after its directory `{dir}`.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const fm = skill.frontmatter;
      if (fm !== null && fm.endLine !== null) continue;
      report({
        messageId: fm === null ? 'missing' : 'unclosed',
        data: { dir: skill.dirName },
        at: { file: skill.skillFile.path, line: 1, column: 1 },
        skill: skill.name,
      });
    }
  },
});
