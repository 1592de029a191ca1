/** Does a long markdown document carry a table of contents an agent can navigate by? */
import { posix } from 'node:path';
import type { Heading, Link, List, Root } from 'mdast';
import type { Node } from 'unist';
import type { SourceFile } from '../../model/types.js';
import { headingTitle } from '../../parse/sections.js';
import { sectionKey } from '../../util/text.js';
import { visit } from '../../util/visit.js';

const TOC_HEADINGS = new Set(['contents', 'table of contents', 'toc', 'on this page']);
/** `[TOC]`, `[[_TOC_]]`, `${toc}` and `<!-- toc -->` markers that renderers expand. */
const TOC_MARKER = /^[ \t]*(?:\[toc\]|\[\[_toc_\]\]|\$\{toc\}|<!--\s*toc\s*-->|<<TableOfContents(?:\([^)]*\))?>>)[ \t]*\r?$/imu;
/** "Table of Contents" or "Contents:" as a line of its own (a converted manual's outline follows). */
const TOC_LINE = /^[ \t]*(?:table of contents|contents:?)[ \t]*\r?$/imu;
/** a list of anchor links counts when it starts this early (or before the first H2) */
const TOP_LINES = 50;
const MIN_ANCHORS = 3;

/**
 * A table of contents is a heading named Contents / Table of Contents / TOC / On this page, a TOC
 * marker line, or — near the top (before the first H2, or within the first 50 lines) — a list with
 * at least three links to anchors of the file itself (`#section`, `this-file.md#section`), or two
 * when the file has only two main (H2) sections.
 */
export function hasTableOfContents(file: SourceFile): boolean {
  const root = file.root as Root | undefined;
  if (!root) return false;
  if (TOC_MARKER.test(file.text)) return true;
  const top = file.text.slice(0, file.lineStarts[TOP_LINES] ?? file.text.length);
  if (TOC_LINE.test(top)) return true;
  let found = false;
  let firstH2 = Infinity;
  let h2s = 0;
  visit(root, 'heading', (n: Node) => {
    const h = n as Heading;
    if (TOC_HEADINGS.has(sectionKey(headingTitle(h)).replace(/:$/u, ''))) found = true;
    if (h.depth === 2) {
      h2s++;
      firstH2 = Math.min(firstH2, h.position?.start.line ?? Infinity);
    }
  });
  // a list that links every main section is a table of contents, even of a file with only two
  const minAnchors = Math.min(MIN_ANCHORS, Math.max(2, h2s));
  if (found) return true;
  const limit = Math.max(TOP_LINES, firstH2 === Infinity ? 0 : firstH2);
  const self = posix.basename(file.path).toLowerCase();
  visit(root, 'list', (n: Node) => {
    if (found || (n.position?.start.line ?? Infinity) > limit) return 'skip';
    let anchors = 0;
    visit(n as List, 'link', (l: Node) => {
      const url = (l as Link).url;
      if (url.startsWith('#') || url.toLowerCase().startsWith(`${self}#`) || url.toLowerCase().startsWith(`./${self}#`)) anchors++;
    });
    if (anchors >= minAnchors) found = true;
    return 'skip';
  });
  return found;
}
