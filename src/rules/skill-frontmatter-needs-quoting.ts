import { defineRule } from '../engine/rule.js';
import { YAML_FRONTMATTER } from './lib/loaders.js';

/** Claude Code's second reading of frontmatter that does not parse (src/parse/frontmatter.ts, claudeCodeQuotes). */
const CLAUDE_CODE_CHANGELOG = 'https://github.com/anthropics/claude-code/blob/main/CHANGELOG.md';

export default defineRule({
  meta: {
    code: 'skill-frontmatter-needs-quoting',
    defaultSeverity: 'error',
    certainty: 'definite',
    // every loader parses the frontmatter as YAML, strictly, but Claude Code, which reads it again
    loaders: {
      ...YAML_FRONTMATTER,
      'claude-code': {
        does: 'accepts',
        source: CLAUDE_CODE_CHANGELOG,
        note: 'a frontmatter that does not parse is read again with such values quoted (2.1.69: "Fixed skill descriptions with colons … failing to load")',
      },
      openclaw: {
        does: 'accepts',
        source: 'https://github.com/openclaw/openclaw/pull/39665',
        note: 'its frontmatter parser recovers a value holding an unquoted `: `',
      },
    },
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Require frontmatter values that hold `: ` or a YAML indicator to be quoted, so that every loader reads the frontmatter',
    scope: 'skill',
    reference: 'new',
    messages: {
      unquoted: {
        message: 'Invalid frontmatter in SKILL.md: {message}; only Claude Code reads it, by quoting the value of {keys}',
        help: 'Quote the value (`{first}: "…"`) or write it as a block (`{first}: >-` and the text indented below): YAML parsers other than Claude Code’s second reading skip the skill, and until then loopkit ignores every frontmatter key.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const err = skill.frontmatter?.error;
      if (!err?.claudeCodeQuotes) continue;
      const keys = err.claudeCodeQuotes;
      report({
        messageId: 'unquoted',
        data: { message: err.message, keys: keys.map((k) => `\`${k}\``).join(', '), first: keys[0]! },
        at: { file: skill.skillFile.path, line: err.line, column: err.column },
        skill: skill.name,
      });
    }
  },
});
