import { posix } from 'node:path';
import { defineRule } from '../engine/rule.js';
import { isContractFile, mentionedSiblings, skillLinks } from './lib/skill-files.js';

const MAX_LINES = 200;

export default defineRule({
  meta: {
    code: 'skill-no-progressive-disclosure',
    defaultSeverity: 'warning',
    category: 'progressive',
    description: 'Check that a SKILL.md longer than 200 lines points to separate reference files',
    scope: 'skill',
    reference: 'improved',
    messages: {
      monolithic: {
        message:
          'SKILL.md is {lines} lines with no separate reference files. Consider extracting content into linked reference files for progressive disclosure',
        help: 'Move detailed sections into files next to SKILL.md and link them, e.g. [reference.md](reference.md).',
      },
    },
  },
  file: {
    kinds: ['skill'],
    // which of the markdown files next to SKILL.md it names
    check: ({ file, siblings }) => mentionedSiblings(file, siblings),
  },
  check({ project, fileData, report }) {
    for (const skill of project.skills) {
      const file = skill.skillFile;
      const lines = file.lineCount;
      if (lines <= MAX_LINES) continue;
      const mentioned = new Set(fileData(file.path) ?? []);
      // LOOP.md / HANDOFFS.md are part of the skill format, not extracted reference material
      const linked = skillLinks(skill).some((l) => !isContractFile(posix.basename(l.path)));
      // a reference file next to SKILL.md or in a sub-folder, named in the text
      if (linked || mentioned.size > 0) continue;
      report({ messageId: 'monolithic', data: { lines }, at: { file: file.path, line: lines, column: 1 }, skill: skill.name });
    }
  },
});
