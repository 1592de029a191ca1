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

const NOT_PROSE = new Set(['code', 'inlineCode', 'html', 'yaml', 'toml', 'definition', 'image', 'imageReference', 'math', 'inlineMath']);

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

/**
 * Literal autolinks as GitHub renders them (`www.example.com`, `https://example.com/a`,
 * `team@example.com`, `mailto:team@example.com`): a URL is no prose. The parser does not load the
 * GFM autolink extension (it is the costliest to parse and nothing else needs it); these follow its
 * rules closely enough for word heuristics: a `www.` or `http(s)://` start at a word boundary, up to
 * white space or `<`, without trailing punctuation or an unbalanced `)`.
 */
const LITERAL_URL =
  /(?<![\p{L}\p{N}_])(?:www\.|https?:\/\/)[^\s<]*|(?<![\p{L}\p{N}_+.\-/])(?:(?:mailto|xmpp):)?[\p{L}\p{N}_+.-]+@[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)+/gu;
const TRAILING = /[?!.,:*_~'"]$/u;

/** The end of a literal URL match without its trailing punctuation. */
function urlEnd(text: string, start: number, end: number): number {
  for (;;) {
    const url = text.slice(start, end);
    if (TRAILING.test(url)) end--;
    else if (url.endsWith(')') && (url.match(/\(/gu)?.length ?? 0) < (url.match(/\)/gu)?.length ?? 0)) end--;
    else {
      const entity = /&[\p{L}\p{N}]+;$/u.exec(url);
      if (!entity) return end;
      end -= entity[0].length;
    }
  }
}

/** The prose of a markdown source file (computed once per file). */
export function prose(file: SourceFile): Prose {
  const hit = cache.get(file);
  if (hit) return hit;
  const src = file.text;
  // the prose ranges, in document order (text nodes never overlap)
  const ranges: number[] = [];
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
        // literal URLs inside the text are not prose
        let at = start;
        const text = src.slice(start, end);
        const urls = text.includes('@') || text.includes('www.') || text.includes('://') ? text.matchAll(LITERAL_URL) : [];
        for (const m of urls) {
          const from = start + m.index;
          ranges.push(at, from);
          at = start + urlEnd(text, m.index, m.index + m[0].length);
        }
        ranges.push(at, end);
        continue;
      }
      if ((node.type === 'paragraph' || node.type === 'heading' || node.type === 'tableCell') && start !== undefined && end !== undefined) {
        blocks.push({ type: node.type, node, start, end });
      }
      const children = (node as Parent).children;
      if (Array.isArray(children)) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  // the text with everything else blanked: spaces, line breaks kept (so offsets stay the file's)
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    const from = ranges[i]!;
    const to = ranges[i + 1]!;
    if (to <= from) continue;
    if (from > at) parts.push(blank(src.slice(at, from)));
    parts.push(src.slice(from, to).replace(/\r/gu, ' '));
    at = to;
  }
  if (at < src.length) parts.push(blank(src.slice(at)));
  const starts = file.lineStarts;
  const result: Prose = { text: parts.join(''), blocks, at: (offset) => positionAt(starts, offset) };
  cache.set(file, result);
  return result;
}

/** Every character but a line break as a space. */
function blank(s: string): string {
  return s.replace(/[^\n]/g, ' '); // per UTF-16 unit: offsets stay the file's
}
