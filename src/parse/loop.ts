/** LOOP.md → LoopFacts: H2 sections, DSL transitions, halt/handoff mentions, step verbs, the state schema tables. */
import type { List, ListItem, Paragraph, PhrasingContent, Root, TableRow } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { LoopFacts, SchemaRow, SourceFile, StateSchemaFacts, StateValueRow, StepVerb, TableCell } from '../model/types.js';
import { positionAt } from '../util/text.js';
import { visit } from '../util/visit.js';
import { parseDsl } from './dsl.js';
import { plainSection, sectionsAt, sectionsByLine, type ParsedSection } from './sections.js';

const WORD = /^[\p{L}\p{M}\p{Nd}_]+(?:-[\p{L}\p{M}\p{Nd}_]+)*/u;

function firstPhrasing(p: Paragraph): PhrasingContent | undefined {
  return p.children[0];
}

/** The word after the step verb in the raw text (emphasis markers around either word are skipped). */
function nextWord(file: SourceFile, line: number, column: number, word: string): string {
  const at = (file.lineStarts[line - 1] ?? 0) + column - 1 + word.length;
  const m = /^[*_~]*\s+[*_~]*([\p{L}\p{M}]+)/u.exec(file.text.slice(at, at + 200));
  return m ? m[1]!.toLowerCase() : '';
}

/** The first word of each ordered-list item (the step's verb), with its place. */
export function stepVerbs(file: SourceFile, sections: readonly ParsedSection[]): StepVerb[] {
  const out: StepVerb[] = [];
  if (!file.root) return out;
  visit(file.root, 'list', (node) => {
    const list = node as List;
    if (!list.ordered) return;
    for (const item of list.children as ListItem[]) {
      const para = item.children[0];
      if (!para || para.type !== 'paragraph') continue;
      const first = firstPhrasing(para);
      // a step that opens with code (`npm test`) or a link names a thing, not a verb
      if (!first || first.type === 'inlineCode' || first.type === 'link' || first.type === 'image') continue;
      const text = toString(first).trimStart();
      const m = WORD.exec(text);
      if (!m) continue;
      const pos = first.position ?? para.position;
      let line = pos?.start.line ?? 1;
      let column = pos?.start.column ?? 1;
      if (first.type === 'strong' || first.type === 'emphasis' || first.type === 'delete') {
        const inner = first.children[0];
        if (inner?.position) {
          line = inner.position.start.line;
          column = inner.position.start.column;
        }
      }
      const word = m[0];
      out.push({ word, line, column, section: '', next: nextWord(file, line, column, word) });
    }
  });
  out.sort((a, b) => a.line - b.line || a.column - b.column);
  const sectionAt = sectionsByLine(sections);
  for (const step of out) step.section = sectionAt(step.line)?.title ?? '';
  return out;
}

/** The section that holds the state schema tables (matched like every section: case- and space-insensitive). */
const SCHEMA_SECTION = 'loop state schema';
/** Header names of the field column of the field table. */
const FIELD_HEADERS = new Set(['field', 'name', 'key', 'path']);

/**
 * The cells of a table row as written in the source: split at pipes that are not escaped (GFM
 * splits there even inside code spans), `\|` unescaped, trimmed, with the place where each cell's
 * text starts. Read from the source rather than the tree, because GFM drops the cells of a row
 * beyond the header's count.
 */
export function rowCells(file: SourceFile, row: TableRow): TableCell[] {
  const start = row.position?.start.offset;
  const end = row.position?.end.offset;
  if (start === undefined || end === undefined) return [];
  const raw = file.text.slice(start, end);
  const bounds: [number, number][] = [];
  let from = 0;
  for (let i = 0; i <= raw.length; i++) {
    if (raw[i] === '\\') {
      i++;
      continue;
    }
    if (i === raw.length || raw[i] === '|') {
      bounds.push([from, i]);
      from = i + 1;
    }
  }
  // a leading pipe opens the row and a trailing one closes it: neither starts a cell
  if (bounds.length > 1 && raw.slice(bounds[0]![0], bounds[0]![1]).trim() === '') bounds.shift();
  const last = bounds[bounds.length - 1];
  if (bounds.length > 1 && last && raw.slice(last[0], last[1]).trim() === '' && /\|\s*$/u.test(raw)) bounds.pop();
  return bounds.map(([a, b]) => {
    const text = raw.slice(a, b);
    const lead = text.length - text.trimStart().length;
    const at = positionAt(file.lineStarts, start + a + lead);
    return { text: text.trim().replace(/\\\|/g, '|'), line: at.line, column: at.column };
  });
}

/** A cell without code-span backticks (field names and types are often written as code), its place on its first character. */
function plainCell(cell: TableCell): TableCell {
  const lead = cell.text.length - cell.text.replace(/^`+\s*/u, '').length;
  return { text: cell.text.replace(/`/g, '').trim(), line: cell.line, column: cell.column + lead };
}

/** A header cell as a column name: lower case, without code or emphasis markers. */
function headerName(cell: TableCell): string {
  return cell.text.replace(/[`*_]/g, '').trim().toLowerCase();
}

/**
 * The tables of the Loop State Schema section (top-level tables only): the first whose header has a
 * field column (`field`, `name`, `key` or `path`) and a `type` column, and the first whose header
 * has a `value` and a `state` column.
 */
export function stateSchemaFacts(file: SourceFile, sections: readonly ParsedSection[]): StateSchemaFacts | null {
  const section = sections.find((s) => s.key === SCHEMA_SECTION);
  if (!section || !file.root) return null;
  const nodes = (file.root as Root).children.slice(section.startIndex + 1, section.endIndex);
  let fields: SchemaRow[] | null = null;
  let values: StateValueRow[] | null = null;
  let place: { line: number; column: number } | null = null;
  for (const node of nodes) {
    if (node.type !== 'table' || node.children.length === 0) continue;
    const header = rowCells(file, node.children[0]!).map(headerName);
    const fieldAt = header.findIndex((h) => FIELD_HEADERS.has(h));
    const typeAt = header.indexOf('type');
    const valueAt = header.indexOf('value');
    const stateAt = header.indexOf('state');
    const rows = node.children.slice(1).map((r) => rowCells(file, r));
    if (fields === null && fieldAt >= 0 && typeAt >= 0) {
      const descriptionAt = header.indexOf('description');
      fields = [];
      for (const cells of rows) {
        // surplus cells are an enumeration written with unescaped pipes: they belong to the type
        const extra = Math.max(0, cells.length - header.length);
        const shift = (i: number) => (i > typeAt ? i + extra : i);
        const field = cells[shift(fieldAt)];
        const type = cells[typeAt];
        if (!field || field.text === '' || !type) continue;
        const typeText = cells
          .slice(typeAt, typeAt + extra + 1)
          .map((c) => c.text)
          .join(' | ');
        fields.push({
          field: plainCell(field),
          type: plainCell({ ...type, text: typeText }),
          description: descriptionAt >= 0 ? (cells[shift(descriptionAt)]?.text ?? '') : '',
        });
      }
    } else if (values === null && valueAt >= 0 && stateAt >= 0) {
      values = [];
      for (const cells of rows) {
        const value = cells[valueAt];
        const state = cells[stateAt];
        if (!value || !state || value.text === '' || state.text === '') continue;
        values.push({ value: plainCell(value), state: plainCell(state) });
      }
    } else continue;
    place ??= { line: node.position?.start.line ?? section.line, column: node.position?.start.column ?? 1 };
  }
  if (place === null) return null;
  return { line: place.line, column: place.column, fields: fields ?? [], values: values ?? [] };
}

export function loopFacts(file: SourceFile): LoopFacts {
  const sections = sectionsAt(file, 2);
  const dsl = parseDsl(file, sections);
  return {
    sections: sections.map(plainSection),
    transitions: dsl.transitions,
    malformed: dsl.malformed,
    halts: dsl.halts,
    handoffs: dsl.handoffs,
    steps: stepVerbs(file, sections),
    stateSchema: stateSchemaFacts(file, sections),
    lastTextLine: positionAt(file.lineStarts, file.text.trimEnd().length).line,
  };
}
