/**
 * Legacy HANDOFFS.md (used only when a skill has no LOOP.md): transitions from markdown tables with
 * `from` and `to` columns (and an optional `trigger` column), otherwise from DSL lines.
 */
import type { Table, TableCell } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { SourceFile, Transition } from '../model/types.js';
import { visit } from '../util/visit.js';
import { parseDsl } from './dsl.js';
import { sectionsAt } from './sections.js';

export function parseHandoffsFile(file: SourceFile): Transition[] {
  const out: Transition[] = [];
  if (file.root) {
    visit(file.root, 'table', (node) => {
      const table = node as Table;
      const [head, ...rows] = table.children;
      if (!head) return;
      const names = head.children.map((c: TableCell) => toString(c).trim().toLowerCase());
      const fi = names.indexOf('from');
      const ti = names.indexOf('to');
      const gi = names.indexOf('trigger');
      if (fi < 0 || ti < 0) return;
      for (const row of rows) {
        const cell = (i: number) => (i >= 0 && row.children[i] ? toString(row.children[i]!).trim() : '');
        const from = cell(fi).replace(/`/g, '');
        const to = cell(ti).replace(/`/g, '');
        if (from === '' || to === '' || from === '-' || to === '-') continue;
        const pos = row.children[fi]?.position?.start ?? row.position?.start;
        const toPos = row.children[ti]?.position?.start;
        const t: Transition = {
          from,
          to,
          arrow: '|',
          file: file.path,
          line: pos?.line ?? 1,
          column: row.position?.start.column ?? 1,
          fromColumn: (pos?.column ?? 1) + 1,
          toColumn: (toPos?.column ?? 1) + 1,
          section: '',
        };
        const trig = cell(gi);
        if (trig !== '' && trig !== '-') t.trigger = { text: trig, line: t.line, column: t.column };
        out.push(t);
      }
    });
  }
  if (out.length > 0) return out;
  return parseDsl(file, sectionsAt(file, 2)).transitions;
}
