/**
 * The one markdown processor: unified + remark-parse (CommonMark) with exactly the syntax
 * extensions the contract model and the rules read, parsed once per file:
 * - frontmatter (`---` YAML and `+++` TOML blocks): SKILL.md metadata, never prose;
 * - GFM tables: prose in cells, legacy HANDOFFS.md tables, the Loop State Schema;
 * - GFM task list items (`- [ ]`): checklists;
 * - GFM strikethrough (`~~x~~`): a struck step verb is still the step's first word.
 * Not loaded, because nothing reads them: GFM footnotes, and GFM literal autolinks (`www.x.com`,
 * bare `https://…`), which the prose rules recognise in the text themselves (rules/lib/prose.ts) —
 * they are the costliest of the GFM extensions to parse.
 */
import type { Root } from 'mdast';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import remarkParse from 'remark-parse';
import { unified, type Processor } from 'unified';
import type { SourceFile } from '../model/types.js';
import { lineStarts } from '../util/text.js';

const FRONTMATTER = ['yaml', 'toml'] as const;

/** A unified plugin: the syntax loopkit reads on top of CommonMark (see above). */
function loopkitSyntax(this: Processor, options: { gfm: boolean }): void {
  const data = this.data();
  const micromark = (data.micromarkExtensions ??= []);
  const fromMarkdown = (data.fromMarkdownExtensions ??= []);
  micromark.push(frontmatter([...FRONTMATTER]));
  fromMarkdown.push(frontmatterFromMarkdown([...FRONTMATTER]));
  if (options.gfm) {
    micromark.push(gfmTable(), gfmTaskListItem(), gfmStrikethrough());
    fromMarkdown.push(gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown(), gfmStrikethroughFromMarkdown());
  }
}

const processor = unified().use(remarkParse).use(loopkitSyntax, { gfm: true });
/**
 * Without GFM: GFM's tree transforms recurse once per nesting level and overflow the stack on a
 * document nested a few thousand levels deep (`> > > …`, `- - - …`); the CommonMark parser does not.
 */
const fallback = unified().use(remarkParse).use(loopkitSyntax, { gfm: false });

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
