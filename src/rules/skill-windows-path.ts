import type { Root } from 'mdast';
import { defineRule } from '../engine/rule.js';
import { isWindowsPath, pathTokens } from '../util/paths.js';
import { insideAny, proseNodes, urlNodes } from '../util/prose-nodes.js';
import { urlPosition, valuePosition } from '../parse/source-map.js';
import { onCounterExampleLine } from './lib/code.js';

const ARROW_AFTER = /^[`*_]*\s*(?:->|→|=>|⇒)/u;
const MARKUP = /^\s*<[A-Za-z][\w.:-]*[\s>/]/u;
const ARROW_BEFORE = /(?:->|→|=>|⇒)\s*[`*_]*$/u;

/**
 * Whether a piece of text is one side of a conversion shown as data (`C:\Users\ann\x\` -> `~/x/`,
 * "`a\b.txt` → `a/b.txt`"): the Windows form is what the skill converts, so it must be written so.
 */
function isConversionExample(text: string, node: { position?: { start: { offset?: number }; end: { offset?: number } } }): boolean {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return false;
  return ARROW_AFTER.test(text.slice(end, end + 8)) || ARROW_BEFORE.test(text.slice(Math.max(0, start - 8), start));
}

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
        if (!node.value.includes('\\') || insideAny(node, links) || isConversionExample(file.text, node)) continue;
        // an XML element in inline code (MSBuild `<ProjectReference Include="..\x.csproj" />`): backslashes are its native form
        if (node.type === 'inlineCode' && MARKUP.test(node.value)) continue;
        // PowerShell (`$env:X="C:\\x"`) is written for Windows, in Windows' own form
        if (node.type === 'inlineCode' && /\$env:/iu.test(node.value)) continue;
        for (const t of pathTokens(node.value)) {
          // `%LOCALAPPDATA%\\Packages\\…`: a Windows location named for Windows users
          if (!isWindowsPath(t.text) || /^%\w+%/u.test(t.text)) continue;
          // a cmd.exe script (`.\\scripts\\test.cmd`) runs only on Windows, where it needs backslashes
          if (/\.(?:cmd|bat)$/iu.test(t.text)) continue;
          const place = valuePosition(file, node, t.index);
          // "✗ Avoid: `scripts\run.py`" teaches the rule itself
          if (!onCounterExampleLine(file, place.line, place.column)) report({ messageId: 'backslash', at: at(place) });
        }
      }
    },
  },
});
