/**
 * Relative file paths a markdown file names in its prose and inline code, not as link
 * destinations: "run `scripts/fill.py`", "see references/forms.md", `{baseDir}/assets/logo.png`.
 * What is read: path-like tokens (util/paths.ts) whose last part is a file name with an extension,
 * written relative (`./x` too, or from the skill-directory placeholder); not: absolute, home or
 * drive paths, URLs, paths that climb out (`../x`), variables, and the text of links (the link is
 * its destination's business). A line number after a path (`scripts/x.py:42`) is dropped.
 * Which of them name a skill's own files is for the rules to say.
 */
import type { Root } from 'mdast';
import type { NamedPath, SourceFile } from '../model/types.js';
import { BASE_DIR_PLACEHOLDER, pathTokens } from '../util/paths.js';
import { insideAny, proseNodes, urlNodes } from '../util/prose-nodes.js';
import { valuePosition } from './source-map.js';

/** A placeholder for the skill directory right before a token that starts with `/` (`${CLAUDE_SKILL_DIR}` + `/x.py`). */
const PLACEHOLDER_BEFORE = /(?:\$\{baseDir\}|\{\{\s*baseDir\s*\}\}|\{baseDir\}|\$\{CLAUDE_SKILL_DIR\})$/u;
/** The last part is a file name with an extension (`forms.md`, `fill_form.py`), not `v1.2` or `.env`. */
const FILE_NAME = /(?:^|\/)[^./][^/]*\.[A-Za-z][A-Za-z0-9]{0,7}$/u;

export function namedPaths(file: SourceFile): NamedPath[] {
  if (!file.root) return [];
  const root = file.root as Root;
  const links = urlNodes(root);
  const out: NamedPath[] = [];
  for (const node of proseNodes(root, true)) {
    if (!/[./]/u.test(node.value) || insideAny(node, links)) continue;
    for (const t of pathTokens(node.value)) {
      let path = t.text.replace(/:\d+(?::\d+)?$/u, '');
      let offset = 0;
      if (path.startsWith('/') && PLACEHOLDER_BEFORE.test(node.value.slice(Math.max(0, t.index - 24), t.index))) {
        path = path.slice(1);
        offset = 1;
      } else if (BASE_DIR_PLACEHOLDER.test(path)) {
        const rest = path.replace(BASE_DIR_PLACEHOLDER, '');
        offset = path.length - rest.length;
        path = rest;
      }
      while (path.startsWith('./')) {
        path = path.slice(2);
        offset += 2;
      }
      if (!FILE_NAME.test(path) || /[:\\]|\/\/|(?:^|\/)\.\.(?:\/|$)/u.test(path) || /^[/~$%@-]/u.test(path)) continue;
      const place = valuePosition(file, node, t.index + offset);
      out.push({ path, line: place.line, column: place.column, code: node.type === 'inlineCode' });
    }
  }
  return out;
}
