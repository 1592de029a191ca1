/**
 * Mechanical repairs of H2 sections for --fix: a missing section added as a placeholder heading at
 * its canonical place, and sections moved into canonical order. Text is only moved or added:
 * every byte of the file is kept.
 */
import type { Section, SourceFile } from '../../model/types.js';
import { minimalEdit, type TextEdit } from '../../util/edits.js';

/** The file's line break: CRLF when it uses one, else LF. */
export function lineBreak(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** What --fix writes for a missing section: the heading and a comment saying what to do. */
export function placeholderSection(name: string, eol: string): string {
  return `## ${name}${eol}${eol}<!-- TODO: write this section (added by loopkit --fix) -->${eol}`;
}

/** Offset where line `line` (1-based) starts. */
function lineOffset(file: SourceFile, line: number): number {
  return file.lineStarts[line - 1] ?? file.text.length;
}

/**
 * The edits that add placeholders for missing sections (in canonical order): each before the first
 * H2 section whose canonical position is later (`indexOf` gives a section key's position, undefined
 * for sections outside the canonical list), else at the end of the file after a blank line.
 * Sections that go to the same place come in one edit.
 */
export function insertSectionsEdits(
  file: SourceFile,
  sections: readonly Section[],
  missing: readonly { name: string; index: number }[],
  indexOf: (key: string) => number | undefined,
): TextEdit[] {
  const text = file.text;
  const eol = lineBreak(text);
  const byPlace = new Map<number, string[]>();
  for (const m of [...missing].sort((a, b) => a.index - b.index)) {
    const before = sections.find((s) => (indexOf(s.key) ?? -1) > m.index);
    const at = before ? lineOffset(file, before.line) : -1;
    const list = byPlace.get(at) ?? [];
    list.push(placeholderSection(m.name, eol));
    byPlace.set(at, list);
  }
  const edits: TextEdit[] = [];
  for (const [at, blocks] of byPlace) {
    if (at >= 0) {
      edits.push({ start: at, end: at, text: blocks.map((b) => b + eol).join('') });
      continue;
    }
    let prefix = '';
    if (text.trim() !== '') prefix = /\r?\n[ \t]*\r?\n$/u.test(text) ? '' : text.endsWith('\n') ? eol : eol + eol;
    else if (text !== '' && !text.endsWith('\n')) prefix = eol;
    edits.push({ start: text.length, end: text.length, text: prefix + blocks.join(eol) });
  }
  return edits;
}

interface Unit {
  /** canonical position (undefined: before the first canonical section, stays in place) */
  index: number | undefined;
  body: string;
}

/** A piece of text split into its content and the blank lines that end it. */
function splitTrailingBlank(s: string): { body: string; blank: string } {
  const m = /(?:^|\n)((?:[ \t]*\r?\n)*[ \t]*)$/u.exec(s);
  if (!m) return { body: s, blank: '' };
  const blank = m[1]!;
  return { body: s.slice(0, s.length - blank.length), blank };
}

/**
 * The text with its H2 sections in canonical order: each canonical section moves together with the
 * non-canonical sections that follow it; sections before the first canonical one, and the text
 * before the first H2, stay where they are, and so does the blank space between sections.
 * Sections of the same position keep their order. Null when the order is already canonical.
 */
export function reorderSections(
  file: SourceFile,
  sections: readonly Section[],
  indexOf: (key: string) => number | undefined,
): string | null {
  const text = file.text;
  const h2 = sections.filter((s) => s.depth === 2);
  if (h2.length < 2) return null;
  const starts = h2.map((s) => lineOffset(file, s.line));
  const preamble = text.slice(0, starts[0]);
  const units: Unit[] = [];
  h2.forEach((s, i) => {
    const chunk = text.slice(starts[i], starts[i + 1] ?? text.length);
    const index = indexOf(s.key);
    const last = units.at(-1);
    if (index === undefined && last) last.body += chunk;
    else units.push({ index, body: chunk });
  });
  const fixed = units.filter((u) => u.index === undefined);
  const moving = units.filter((u) => u.index !== undefined);
  const sorted = [...moving].sort((a, b) => a.index! - b.index!);
  if (sorted.every((u, i) => u === moving[i])) return null;
  const eol = lineBreak(text);
  const endsWithBreak = text.endsWith('\n');
  // each slot keeps the blank lines that end it; the content moves
  const slots = moving.map((u) => splitTrailingBlank(u.body).blank);
  let out = preamble + fixed.map((u) => u.body).join('');
  sorted.forEach((u, i) => {
    let body = splitTrailingBlank(u.body).body;
    const lastSlot = i === sorted.length - 1;
    if (!body.endsWith('\n') && (!lastSlot || endsWithBreak)) body += eol;
    if (lastSlot && !endsWithBreak && slots[i] === '' && body.endsWith('\n')) body = body.replace(/\r?\n$/u, '');
    out += body + slots[i]!;
  });
  return out === text ? null : out;
}

/** reorderSections as an edit. */
export function reorderSectionsEdit(
  file: SourceFile,
  sections: readonly Section[],
  indexOf: (key: string) => number | undefined,
): TextEdit[] {
  const next = reorderSections(file, sections, indexOf);
  const edit = next === null ? null : minimalEdit(file.text, next);
  return edit ? [edit] : [];
}
