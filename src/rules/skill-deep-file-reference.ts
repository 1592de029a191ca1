import { defineRule } from '../engine/rule.js';
import { directoryLevels } from '../util/paths.js';

export default defineRule({
  meta: {
    code: 'skill-deep-file-reference',
    defaultSeverity: 'warning',
    category: 'structure',
    description: 'Check that SKILL.md links to markdown files at most one directory level down',
    scope: 'skill',
    reference: 'improved',
    messages: {
      deep: {
        message: "File reference '{target}' is more than one level deep. Keep references one level deep from SKILL.md",
        help: 'Keep reference files next to SKILL.md or in one sub-folder (references/guide.md).',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, facts, report }) {
      // relative .md links and definitions only: URLs, absolute paths and #anchors are not file references
      for (const link of facts.file.links) {
        if (directoryLevels(link.target) <= 1) continue; // `./refs/a.md` is one level
        report({ messageId: 'deep', data: { target: link.target }, at: { file: file.path, line: link.urlLine, column: link.urlColumn } });
      }
    },
  },
});
