import type { Root } from 'mdast';
import { defineRule } from '../engine/rule.js';
import { directoryLevels } from '../util/paths.js';
import { urlNodes } from '../util/prose-nodes.js';
import { urlPosition } from '../util/source-map.js';

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
  check({ project, report }) {
    for (const skill of project.skills) {
      const file = skill.skillFile;
      const root = file.root as Root | undefined;
      if (!root) continue;
      const nodeAt = new Map(urlNodes(root).map((n) => [`${n.position?.start.line}:${n.position?.start.column}`, n]));
      // relative .md links and definitions only: URLs, absolute paths and #anchors are not file references
      for (const link of skill.links) {
        if (directoryLevels(link.target) <= 1) continue; // `./refs/a.md` is one level
        const node = nodeAt.get(`${link.line}:${link.column}`);
        const p = node ? urlPosition(file, node) : link;
        report({ messageId: 'deep', data: { target: link.target }, at: { file: file.path, line: p.line, column: p.column }, skill: skill.name });
      }
    }
  },
});
