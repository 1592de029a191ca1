import type { Root, Yaml } from 'mdast';
import { defineRule } from '../engine/rule.js';
import { proseNodes } from '../util/prose-nodes.js';
import { valuePosition } from '../parse/source-map.js';
import { positionAt } from '../util/text.js';

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
/** A month name and a four-digit year as whole words: `March 2024`, not `dismay 2024` or `May 20245`. */
const DATE = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}_])(?:${MONTHS})\\s+[0-9]{4}(?![\\p{L}\\p{M}\\p{N}_])`, 'giu');

/** Is offset `at` of `text` inside a double-quoted passage (an example prompt, a quotation)? */
function quoted(text: string, at: number): boolean {
  const before = text.slice(0, at);
  const straight = (before.match(/"/gu) ?? []).length;
  const open = (before.match(/[“«„]/gu) ?? []).length;
  const close = (before.match(/[”»]/gu) ?? []).length;
  return straight % 2 === 1 || open > close;
}

function matches(text: string, skipQuoted = true): number[] {
  const out: number[] = [];
  DATE.lastIndex = 0;
  for (let m = DATE.exec(text); m !== null; m = DATE.exec(text)) if (!skipQuoted || !quoted(text, m.index)) out.push(m.index);
  return out;
}

export default defineRule({
  meta: {
    code: 'skill-time-sensitive',
    defaultSeverity: 'warning',
    category: 'structure',
    description: 'Check SKILL.md prose and frontmatter for dates (month and year) that will go stale',
    scope: 'skill',
    reference: 'improved',
    messages: {
      dated: {
        message: "SKILL.md contains date-specific language (e.g., 'March 2024'). Consider using relative framing",
        help: 'Describe the current behaviour without a date, and keep history in a collapsible "Old patterns" section or out of the skill.',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, report }) {
      const root = file.root as Root;
      const at = (p: { line: number; column: number }) => ({ file: file.path, line: p.line, column: p.column });
      // the frontmatter is loaded at startup: a date in the description goes stale too
      const yaml = root.children.find((n): n is Yaml => n.type === 'yaml');
      const start = yaml?.position?.start.offset;
      const end = yaml?.position?.end.offset;
      if (start !== undefined && end !== undefined) {
        for (const i of matches(file.text.slice(start, end), false))
          report({ messageId: 'dated', at: at(positionAt(file.lineStarts, start + i)) });
      }
      // prose only: code blocks and inline code are quoted literally
      for (const node of proseNodes(root, false)) {
        for (const i of matches(node.value)) report({ messageId: 'dated', at: at(valuePosition(file, node, i)) });
      }
    },
  },
});
