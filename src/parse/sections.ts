/** Headings → sections, with positions and body ranges. */
import type { Heading, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { Section, SourceFile } from '../model/types.js';
import { sectionKey } from '../util/text.js';

/** A section while the file is parsed: also where its body and its nodes are. */
export interface ParsedSection extends Section {
  /** start/end offsets in the file text of the section body (after the heading) */
  bodyStart: number;
  bodyEnd: number;
  /** index of the heading node in root.children, and the end index (exclusive) */
  startIndex: number;
  endIndex: number;
}

/** Heading text without a trailing `{#id .class}` attribute block. */
export function headingTitle(h: Heading): string {
  return toString(h)
    .replace(/\s*\{[#.][^}]*\}\s*$/, '')
    .trim();
}

/**
 * Sections opened by headings of exactly `depth` among the top-level nodes. A section ends at the
 * next heading of depth ≤ `depth`.
 */
export function sectionsAt(file: SourceFile, depth: number): ParsedSection[] {
  if (!file.root) return [];
  return headingSections(
    file,
    file.root.children,
    (h) => h.depth === depth,
    (h) => h.depth <= depth,
  );
}

/**
 * Sections for every top-level heading accepted by `opens`, each ending at the next heading for
 * which `closes` holds (or at the end of the file).
 */
export function headingSections(
  file: SourceFile,
  nodes: readonly RootContent[],
  opens: (h: Heading) => boolean,
  closes: (h: Heading, opener: Heading) => boolean,
): ParsedSection[] {
  const out: ParsedSection[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (n.type !== 'heading' || !opens(n)) continue;
    let j = i + 1;
    while (j < nodes.length) {
      const m = nodes[j]!;
      if (m.type === 'heading' && closes(m, n)) break;
      j++;
    }
    const bodyStart = n.position?.end.offset ?? 0;
    const next = nodes[j];
    const bodyEnd = next?.position?.start.offset ?? file.text.length;
    const title = headingTitle(n);
    const lastNode = nodes[j - 1]!;
    out.push({
      title,
      key: sectionKey(title),
      depth: n.depth,
      line: n.position?.start.line ?? 1,
      column: n.position?.start.column ?? 1,
      endLine: lastNode.position?.end.line ?? n.position?.end.line ?? 1,
      bodyStart,
      bodyEnd,
      startIndex: i,
      endIndex: j,
    });
  }
  return out;
}

/** The section (if any) that contains a 1-based line. */
export function sectionAtLine<S extends Section>(sections: readonly S[], line: number): S | undefined {
  let found: S | undefined;
  for (const s of sections) if (s.line <= line) found = s;
  return found && line <= found.endLine ? found : undefined;
}

/**
 * sectionAtLine for lines asked in increasing order, in constant time per line (a LOOP.md may have
 * thousands of sections and lines).
 */
export function sectionsByLine<S extends Section>(sections: readonly S[]): (line: number) => S | undefined {
  let k = -1;
  return (line) => {
    while (k + 1 < sections.length && sections[k + 1]!.line <= line) k++;
    const s = sections[k];
    return s && line <= s.endLine ? s : undefined;
  };
}

/** The plain Section (for the model) of a parsed one. */
export function plainSection(s: ParsedSection): Section {
  return { title: s.title, key: s.key, depth: s.depth, line: s.line, column: s.column, endLine: s.endLine };
}
