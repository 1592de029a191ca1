/**
 * The prose of a markdown file, for word heuristics: the file text with everything that is not
 * prose blanked out (replaced by spaces; line breaks kept), so offsets — and so line/column
 * positions — are those of the file itself.
 *
 * Prose = the source of mdast `text` nodes: paragraphs, headings, list items, table cells, block
 * quotes, emphasis, link text. Not prose: fenced/indented code, inline code, HTML, frontmatter,
 * link URLs and definitions, images, math, and autolinks (`<https://…>`, `www.…`), whose text is
 * a URL.
 */
import type { Link, Root, Text } from 'mdast';
import type { Node, Parent } from 'unist';
import type { SourceFile } from '../../model/types.js';
import { positionAt } from '../../util/text.js';

const NOT_PROSE = new Set([
  'code', 'inlineCode', 'html', 'yaml', 'toml', 'definition', 'image', 'imageReference', 'math', 'inlineMath',
]);

/** A block whose text is one run of prose (sentences do not cross block borders). */
export interface ProseBlock {
  type: 'paragraph' | 'heading' | 'tableCell';
  node: Node;
  /** UTF-16 offsets of the block in the file text */
  start: number;
  end: number;
}

export interface Prose {
  /** same length as the file text; non-prose characters are spaces (line breaks are kept) */
  text: string;
  blocks: readonly ProseBlock[];
  /** 1-based position of an offset */
  at(offset: number): { line: number; column: number };
}

const cache = new WeakMap<SourceFile, Prose>();

function isAutolink(link: Link): boolean {
  if (link.children.length !== 1 || link.children[0]!.type !== 'text') return false;
  const value = (link.children[0] as Text).value;
  return link.url === value || link.url.endsWith(`:${value}`) || link.url.endsWith(`//${value}`);
}

/** The prose of a markdown source file (computed once per file). */
export function prose(file: SourceFile): Prose {
  const hit = cache.get(file);
  if (hit) return hit;
  const src = file.text;
  const chars: string[] = [];
  for (let i = 0; i < src.length; i++) chars.push(src[i] === '\n' ? '\n' : ' ');
  const blocks: ProseBlock[] = [];
  const root = file.root as Root | undefined;
  if (root) {
    const stack: Node[] = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (NOT_PROSE.has(node.type)) continue;
      if (node.type === 'link' && isAutolink(node as Link)) continue;
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      if (node.type === 'text' && start !== undefined && end !== undefined) {
        for (let i = start; i < end; i++) chars[i] = src[i] === '\r' ? ' ' : src[i]!;
        continue;
      }
      if ((node.type === 'paragraph' || node.type === 'heading' || node.type === 'tableCell') && start !== undefined && end !== undefined) {
        blocks.push({ type: node.type, node, start, end });
      }
      const children = (node as Parent).children;
      if (Array.isArray(children)) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  const starts = file.lineStarts;
  const result: Prose = { text: chars.join(''), blocks, at: (offset) => positionAt(starts, offset) };
  cache.set(file, result);
  return result;
}
