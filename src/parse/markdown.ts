/** The one markdown processor: CommonMark + GFM + frontmatter blocks, parsed once per file. */
import type { Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { SourceFile } from '../model/types.js';
import { lineStarts } from '../util/text.js';

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml', 'toml']);
/**
 * Without GFM: GFM's tree transforms recurse once per nesting level and overflow the stack on a
 * document nested a few thousand levels deep (`> > > …`, `- - - …`); the CommonMark parser does not.
 */
const fallback = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']);

export function parseMarkdown(text: string): Root {
  try {
    return processor.parse(text) as Root;
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return fallback.parse(text) as Root;
  }
}

/** Build a SourceFile; `markdown` parses it into mdast as well. */
export function sourceFile(path: string, text: string, markdown: boolean): SourceFile {
  const file: SourceFile = { path, text, lineStarts: lineStarts(text) };
  if (markdown) file.root = parseMarkdown(text);
  return file;
}
