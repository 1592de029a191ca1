import { defineRule } from '../engine/rule.js';

const MAX_LINES = 500;

export default defineRule({
  meta: {
    code: 'skill-body-too-long',
    defaultSeverity: 'error',
    certainty: 'heuristic',
    category: 'structure',
    reads: ['frontmatter', 'body'],
    local: true,
    description: 'Limit the body of SKILL.md to 500 lines (Agent Skills guidance)',
    scope: 'skill',
    reference: 'improved',
    messages: {
      tooLong: {
        message: 'SKILL.md body exceeds 500 lines ({lines} lines). Consider extracting content into reference files',
        help: 'Move detailed material into files next to SKILL.md and link them, e.g. [reference.md](reference.md); agents read them only when needed.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      // the body, as the message says and the guidance means: the lines after the frontmatter's closing `---`
      const start = skill.frontmatter?.endLine ?? 0;
      const lines = skill.skillFile.lineCount - start;
      if (lines <= MAX_LINES) continue;
      // the first line over the limit
      report({
        messageId: 'tooLong',
        data: { lines },
        at: { file: skill.skillFile.path, line: start + MAX_LINES + 1, column: 1 },
        skill: skill.name,
      });
    }
  },
});
