/**
 * Prose as mdast nodes: `text` nodes (paragraphs, headings, list items, table cells, link text…)
 * and, on request, `inlineCode` spans, in document order. Fenced/indented code blocks, HTML and
 * frontmatter are never prose. Unlike util/prose.ts (the source text with non-prose blanked out),
 * these are the parsed values: backslash escapes and character references are decoded, so `\_` is
 * no backslash. Map an index in a value back to the file with util/source-map.ts.
 */
import type { Definition, Image, InlineCode, Link, Root, Text } from 'mdast';
import type { Node } from 'unist';
import { visit } from './visit.js';

export function proseNodes(root: Root, withInlineCode: boolean): (Text | InlineCode)[] {
  const out: (Text | InlineCode)[] = [];
  visit(root, null, (n: Node) => {
    if (n.type === 'text' || (withInlineCode && n.type === 'inlineCode')) out.push(n as Text | InlineCode);
  });
  return out;
}

/** Links, images and definitions (the nodes that carry a destination URL), in document order. */
export function urlNodes(root: Root): (Link | Image | Definition)[] {
  const out: (Link | Image | Definition)[] = [];
  visit(root, null, (n: Node) => {
    if (n.type === 'link' || n.type === 'image' || n.type === 'definition') out.push(n as Link | Image | Definition);
  });
  return out;
}

/** Whether `node` lies inside one of `containers` (by source offsets). */
export function insideAny(node: Node, containers: readonly Node[]): boolean {
  const at = node.position?.start.offset;
  if (at === undefined) return false;
  return containers.some((c) => {
    const s = c.position?.start.offset;
    const e = c.position?.end.offset;
    return s !== undefined && e !== undefined && s <= at && at < e;
  });
}
