import { defineRule } from '../engine/rule.js';
import { YAML_FRONTMATTER } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-invalid-frontmatter',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: YAML_FRONTMATTER,
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Require the SKILL.md frontmatter to be valid YAML holding a mapping of keys',
    scope: 'skill',
    reference: 'new',
    messages: {
      invalid: {
        message: 'Invalid frontmatter in SKILL.md: {message}',
        help: 'Fix the YAML between the two `---` lines. Until then loopkit ignores every frontmatter key and names the skill after its directory `{dir}`.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const err = skill.frontmatter?.error;
      // what Claude Code reads by quoting values is skill-frontmatter-needs-quoting's
      if (!err || err.claudeCodeQuotes) continue;
      report({
        messageId: 'invalid',
        data: { message: err.message, dir: skill.dirName },
        at: { file: skill.skillFile.path, line: err.line, column: err.column },
        skill: skill.name,
      });
    }
  },
});
