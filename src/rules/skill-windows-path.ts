import type { Root } from 'mdast';
import { defineRule } from '../engine/rule.js';
import { isWindowsPath, pathTokens } from '../util/paths.js';
import { insideAny, proseNodes, urlNodes } from '../util/prose-nodes.js';
import { urlPosition, valuePosition } from '../parse/source-map.js';

export default defineRule({
  meta: {
    code: 'skill-windows-path',
    defaultSeverity: 'error',
    category: 'structure',
    description: 'Disallow Windows-style paths (backslashes) in SKILL.md prose, inline code and links',
    scope: 'skill',
    reference: 'improved',
    messages: {
      backslash: {
        message: 'SKILL.md contains Windows-style paths (backslash). Use forward slashes',
        help: 'Write paths with `/` (scripts/run.py); agents and tools on every platform understand them.',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, report }) {
      const root = file.root as Root;
      const at = (p: { line: number; column: number }) => ({ file: file.path, line: p.line, column: p.column });
      // a link destination never legitimately contains a backslash
      const links = urlNodes(root).filter((n) => n.url.includes('\\'));
      for (const node of links) report({ messageId: 'backslash', at: at(urlPosition(file, node)) });
      // text values have markdown escapes decoded: `\_` or `\|` is not a backslash
      for (const node of proseNodes(root, true)) {
        // a Windows path has a backslash; the link is reported once, at its destination
        if (!node.value.includes('\\') || insideAny(node, links)) continue;
        for (const t of pathTokens(node.value)) {
          if (isWindowsPath(t.text)) report({ messageId: 'backslash', at: at(valuePosition(file, node, t.index)) });
        }
      }
    },
  },
});
