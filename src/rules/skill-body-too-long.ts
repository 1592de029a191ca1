import { defineRule } from '../engine/rule.js';

const MAX_LINES = 500;

export default defineRule({
  meta: {
    code: 'skill-body-too-long',
    defaultSeverity: 'error',
    certainty: 'heuristic',
    category: 'structure',
    description: 'Limit SKILL.md to 500 lines (Agent Skills guidance)',
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
      const lines = skill.skillFile.lineCount;
      if (lines <= MAX_LINES) continue;
      // the first line over the limit
      report({
        messageId: 'tooLong',
        data: { lines },
        at: { file: skill.skillFile.path, line: MAX_LINES + 1, column: 1 },
        skill: skill.name,
      });
    }
  },
});
