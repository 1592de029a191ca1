/**
 * Inline suppression comments in markdown files:
 *
 *   <!-- loopkit-disable-next-line loop-nonstandard-verb -- domain verb, agreed with the team -->
 *   <!-- loopkit-disable-line state-invalid-name -->
 *   <!-- loopkit-disable skill-term-inconsistency -->  …  <!-- loopkit-enable skill-term-inconsistency -->
 *
 * Without codes a comment covers every code. In the frontmatter the same words go in a YAML comment
 * (`# loopkit-disable-next-line skill-unknown-frontmatter-key`). Comments inside code blocks are
 * examples, not directives (only mdast `html` nodes and frontmatter comment lines are read).
 */
import type { Html, Root } from 'mdast';
import type { SuppressionComment } from '../model/types.js';
import { splitLines } from '../util/text.js';
import { visit } from '../util/visit.js';

const DIRECTIVE = /^loopkit-(disable-next-line|disable-line|disable|enable)(?=\s|$)\s*(.*?)\s*$/su;

function parseDirective(body: string): Pick<SuppressionComment, 'verb' | 'codes' | 'reason'> | null {
  const m = DIRECTIVE.exec(body.trim());
  if (!m) return null;
  // `codes -- reason`
  const rest = m[2]!;
  const sep = /(?:^|\s)--(?:\s|$)/u.exec(rest);
  const codes = (sep ? rest.slice(0, sep.index) : rest).split(/[\s,]+/u).filter((c) => c !== '');
  return { verb: m[1] as SuppressionComment['verb'], codes, reason: sep ? rest.slice(sep.index + sep[0].length).trim() : '' };
}

export function collectSuppressions(text: string, root: Root | undefined): SuppressionComment[] {
  const found: SuppressionComment[] = [];
  const lines = splitLines(text);
  // frontmatter: YAML comment lines between the opening and closing `---`
  if (lines[0]?.trimEnd() === '---') {
    for (let i = 1; i < lines.length && !/^(---|\.\.\.)\s*$/u.test(lines[i]!); i++) {
      const m = /^(\s*)#\s*(.*)$/u.exec(lines[i]!);
      const p = m ? parseDirective(m[2]!) : null;
      if (p) found.push({ ...p, line: i + 1, endLine: i + 1, column: m![1]!.length + 1 });
    }
  }
  if (root) {
    visit(root, 'html', (node) => {
      const html = node as Html;
      const start = html.position?.start;
      if (!start) return;
      for (const c of html.value.matchAll(/<!--([\s\S]*?)-->/gu)) {
        const p = parseDirective(c[1]!);
        if (!p) continue;
        const before = html.value.slice(0, c.index);
        const line = start.line + (before.match(/\n/gu)?.length ?? 0);
        const endLine = line + (c[0].match(/\n/gu)?.length ?? 0);
        const column = before.includes('\n') ? before.length - before.lastIndexOf('\n') : start.column + before.length;
        found.push({ ...p, line, endLine, column });
      }
    });
  }
  return found.sort((a, b) => a.line - b.line || a.column - b.column);
}
