/**
 * Local links of a markdown file (links, images and link definitions whose destination is a path
 * in the project, not a URL) and the anchors its headings define, for the broken-link checks.
 */
import type { Code, Definition, Heading, Html, Image, Link } from 'mdast';
import GithubSlugger from 'github-slugger';
import { toString } from 'mdast-util-to-string';
import type { LocalLink, SourceFile } from '../model/types.js';
import { visit } from '../util/visit.js';
import { BASE_DIR_PLACEHOLDER } from '../util/paths.js';
import { isPlaceholderValue } from '../util/text.js';
import { urlPosition } from './source-map.js';

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * A destination that names a path in the project: no scheme (`https:`, `mailto:`), not absolute,
 * in the home directory or protocol-relative (`/x`, `~/.claude/x.md`, `//host`), and no template syntax (`{{url}}`, `<path>`, `$VAR`, and
 * `[changes]` — a template line `- [file path]: [changes]` is a link definition to CommonMark — and
 * an ellipsis, `[the guide](...)`, a word in capitals, `[Open](LINK)`, or numbers only,
 * `SHA256[cwd](0:12)`, or one word without an extension, a folder or an anchor, `[text](url)`,
 * `[标题](链接)`) — a placeholder is filled in later, it is not a broken link.
 */
function localDestination(url: string): boolean {
  if (url === '' || /^[a-z][a-z0-9+.-]*:/iu.test(url) || url.startsWith('/') || url.startsWith('\\') || url.startsWith('~')) return false;
  if (/^\[[^\]]*\]$/u.test(url) || /^(?:\.{3,}|…)$/u.test(url)) return false;
  // `[Open](LINK)`, `[docs](URL)`: a word in capitals stands for a destination filled in later
  if (/^[A-Z][A-Z0-9_]*$/u.test(url)) return false;
  // `[0,2,4](MON/WED/FRI)`: words in capitals joined by slashes are a shorthand, not folders
  if (/^[A-Z][A-Z0-9_]*(?:\/[A-Z][A-Z0-9_]*)+$/u.test(url)) return false;
  // `SHA256[cwd](0:12)`: numbers only (a slice, a range, a time) — no file is named so
  if (/^[\d:.,;+-]+$/u.test(url) && /\d/u.test(url)) return false;
  // `[text](url)`, `[标题](链接)`, `titles[](3-5个标题)`: one word, no extension, no folder, no anchor —
  // a placeholder or a description of a value, not a file name
  if (!/[./#\\]/u.test(url)) return false;
  // `[{title}](paper.url)`, `[Source](item.link)`: a property of a template's value, not a file name
  if (/^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\.(?:url|uri|link|href|src)$/iu.test(url)) return false;
  return !/[{}<>$]|%7B|%7D/iu.test(url);
}

/**
 * A link of a template the skill fills in, not a link of the skill: its text (an image's alt text, a
 * definition's label) is wholly a placeholder in template syntax — `[{id}](url.md)`,
 * `[{{ title }}](summary.md)`, `[<title>](notes.md)`, `[{id}]: notes.md` — a line of an output
 * template written unfenced, whose destination is filled in too.
 */
export function isTemplateSlot(node: Link | Image | Definition): boolean {
  const text = node.type === 'definition' ? (node.label ?? '') : node.type === 'image' ? (node.alt ?? '') : toString(node);
  return text.trim() !== '' && isPlaceholderValue(text);
}

/** Whether offset `at` lies between two straight double quotes of its line (`"… [x](y.md) …"`). */
function insideQuotes(file: SourceFile, line: number, at: number): boolean {
  const start = file.lineStarts[line - 1] ?? 0;
  const next = file.lineStarts[line];
  const text = file.text.slice(start, next === undefined ? file.text.length : next);
  const before = (text.slice(0, at - start).match(/"/gu) ?? []).length;
  return before % 2 === 1 && text.indexOf('"', at - start) !== -1;
}

/** Text nobody sees: empty, white space, or zero-width characters (U+200B–U+200D, U+2060, U+FEFF). */
const INVISIBLE = /^[\s\u200B-\u200D\u2060\uFEFF]*$/u;

/**
 * Words that say the link after them is the form to write, not a file to open: `a reference to the
 * loader would be written as [loader.js](./core/loader.js.md)`, `write it as [x](y.md)`, `a link
 * looks like [x](y.md)` (held-out round 49: how the docs a skill generates link each other).
 */
const WRITTEN_AS =
  /\b(?:(?:is|are|be|gets?) written as|write (?:it|them|each|the link|links?) (?:as|like)|(?:would |should |will )?look(?:s)? like|in the form)[ \t]*:?[ \t]*$/iu;

/** Whether the link starting at offset `at` follows words that introduce it as the form to write (WRITTEN_AS). */
function shownAsForm(file: SourceFile, line: number, at: number): boolean {
  const start = file.lineStarts[line - 1] ?? 0;
  return WRITTEN_AS.test(file.text.slice(start, at));
}

/**
 * The text an author meant to be inside a code block but CommonMark does not: a fenced block that
 * holds an opening fence of its own length with an info string (a ```` ```markdown ```` example of a
 * README that contains a ```` ```bash ```` block) is closed by the inner block's closing fence, and the
 * rest of the example — up to the author's closing fence — is read as markdown. So is a
 * ```` ```markdown ```` template whose inner block opens with a bare fence: CommonMark closes the
 * template there, and the author's sign is that the text goes on at the next line (a closing fence
 * is followed by a blank line or the end of the block's paragraph, an opening one by its content)
 * and that a later bare block swallows the template's own headings (held-out round 73: a plan
 * template's task list linking the files the plan will have). Offsets [from, to) of those stretches.
 */
function spilledExamples(file: SourceFile): [number, number][] {
  const codes: { start: number; end: number; node: Code }[] = [];
  visit(file.root!, 'code', (n) => {
    const start = n.position?.start.offset;
    const end = n.position?.end.offset;
    if (start !== undefined && end !== undefined) codes.push({ start, end, node: n as Code });
  });
  codes.sort((a, b) => a.start - b.start);
  const fenceOf = (start: number) => /^[ \t]*(`{3,}|~{3,})/u.exec(file.text.slice(start, start + 40))?.[1];
  const out: [number, number][] = [];
  codes.forEach(({ start, end, node }, i) => {
    const fence = fenceOf(start);
    if (fence === undefined || i + 1 >= codes.length) return;
    const inner = new RegExp(`^[ \\t]*${fence[0] === '`' ? '`' : '~'}{${fence.length},}[^\\s\`~]`, 'mu');
    const nestsWithInfo = inner.test(node.value);
    // a markdown template closed by what reads as a bare opening fence: its content goes on at the next line
    const next = /^\r?\n([^\r\n]*)/u.exec(file.text.slice(end))?.[1] ?? '';
    const bareOpener = /^(?:markdown|md)$/iu.test(node.lang ?? '') && next.trim() !== '' && !/^[ \t]*(?:`{3,}|~{3,})/u.test(next);
    if (!nestsWithInfo && !bareOpener) return;
    // the example runs on, through its other inner blocks (```bash … ```, a bare ``` of output), up to
    // the author's closing fence — a bare fence, which CommonMark reads as opening a block that swallows
    // the document's own headings; else up to the first bare fence, else the next block
    const bare = (c: (typeof codes)[number], j: number) => j > i && !c.node.lang && fenceOf(c.start) !== undefined;
    const swallows = (c: (typeof codes)[number], j: number) => bare(c, j) && /^#{1,6}[ \t]/mu.test(c.node.value);
    if (!nestsWithInfo) {
      // the bare opener's reading needs that sign, in the very next block (the inner block's closing
      // fence opens it); the inner info string is sign enough for the other reading
      if (swallows(codes[i + 1]!, i + 1)) out.push([end, codes[i + 1]!.start]);
      return;
    }
    let close = codes.findIndex(swallows);
    if (close === -1) close = codes.findIndex(bare);
    if (close === -1) close = i + 1;
    out.push([end, codes[close]!.start]);
  });
  return out;
}

export function localLinks(file: SourceFile): LocalLink[] {
  const out: LocalLink[] = [];
  if (!file.root) return out;
  const spilled = spilledExamples(file);
  visit(file.root, null, (n) => {
    if (n.type !== 'link' && n.type !== 'image' && n.type !== 'definition') return;
    const node = n as Link | Image | Definition;
    // `array[](a/b/c)`: a link nobody can see or click (no text) is a field list or a schema, not a reference
    // … nor is one whose text is only invisible characters: a heading's own permalink in docs crawled
    // from a site (`## Flags [\u200B](#flags)`, held-out round 55)
    if (n.type === 'link' && INVISIBLE.test(toString(node))) return;
    if (isTemplateSlot(node)) return;
    const fromSkillDir = BASE_DIR_PLACEHOLDER.test(node.url);
    const url = node.url.replace(BASE_DIR_PLACEHOLDER, '');
    if (!localDestination(url)) return;
    const hash = url.indexOf('#');
    const pathPart = (hash === -1 ? url : url.slice(0, hash)).replace(/\?.*$/u, '');
    const at = urlPosition(file, node);
    // `[release notes](<link>)`: a word in angle brackets, no file name, is a placeholder
    const written = (file.lineStarts[at.line - 1] ?? 0) + at.column - 1;
    if (file.text[written - 1] === '<' && !/[./#]/u.test(url)) return;
    // `- "See [patterns.md](patterns.md) for complex scenarios"`: a quoted example of what to write
    if (insideQuotes(file, at.line, written)) return;
    // `… would be written as [loader.js](./core/loader.js.md)`: the form of a link to write elsewhere
    const open = node.position?.start;
    if (open?.offset !== undefined && shownAsForm(file, open.line, open.offset)) return;
    // the rest of an example whose fences the author nested wrongly
    if (spilled.some(([from, to]) => written >= from && written < to)) return;
    const link: LocalLink = { url: node.url, path: decode(pathPart), line: at.line, column: at.column, image: n.type === 'image' };
    if (hash !== -1) link.anchor = decode(url.slice(hash + 1));
    if (fromSkillDir) link.fromSkillDir = true;
    out.push(link);
  });
  return out;
}

/** A heading's explicit anchor at its end: `{#id}`, and kramdown's `{:#id}` (group 1: the id). */
const EXPLICIT_ID = /\{:?\s*#([^}\s]+)[^}]*\}\s*$/u;
/** The attribute list at a heading's end (`{#id}`, `{:#id}`, `{.class}`), which its slug leaves out. */
const ATTRIBUTE_LIST = /\s*\{:?\s*[#.][^}]*\}\s*$/u;

/**
 * The anchors a markdown file defines: its headings' anchors as GitHub renders them
 * (`github-slugger`: lower case, punctuation dropped, spaces to hyphens, a repeated heading gets
 * `-1`, `-2` …), explicit `{#id}` heading attributes and kramdown `{:#id}` attribute lists, and `id`/`name`
 * attributes of HTML elements.
 */
export function anchors(file: SourceFile): string[] {
  const out = new Set<string>();
  if (!file.root) return [];
  const slugger = new GithubSlugger();
  visit(file.root, null, (n) => {
    if (n.type === 'heading') {
      const raw = toString(n as Heading);
      const explicit = EXPLICIT_ID.exec(raw);
      if (explicit) out.add(explicit[1]!);
      // `## Remote logons [ecs-user-usage-remote-logons]`: an anchor named in the heading (Elastic's docs-builder)
      const named = /\s\[([\w-]+)\]\s*$/u.exec(raw);
      if (named) out.add(named[1]!);
      out.add(slugger.slug(raw.replace(ATTRIBUTE_LIST, '').trim()));
    } else if (n.type === 'html') {
      for (const m of (n as Html).value.matchAll(/\b(?:id|name)\s*=\s*["']([^"']+)["']/giu)) out.add(m[1]!);
    }
  });
  for (const a of textAnchors(file.text)) out.add(a);
  return [...out];
}

/**
 * Does the markdown import a markdown partial, as MDX does (`import Methods from
 * '../shared/_methods.mdx';` on a line of its own, outside code)? Docusaurus renders the partial
 * where the file names it (`<Methods />`), its headings and their anchors with it (held-out round 96:
 * API references copied into a skill link `#fromJS`, which a partial defines).
 */
export function importsPartials(text: string): boolean {
  if (!text.includes('import ')) return false;
  for (const _ of outsideFences(text, String.raw`import\s+[\w{}, ]+\s+from\s+['"][^'"]+\.mdx?['"];?\s*$`)) return true;
  return false;
}

/**
 * The matches of `pattern` (a regular expression's source, matched at the start of a line after up
 * to three spaces, multiline) outside the code blocks that fences open and close line by line, as a
 * reader of the raw text sees them (HTML blocks do not hide fences from such a reader).
 */
function* outsideFences(text: string, pattern: string): Generator<RegExpMatchArray> {
  let fence: string | null = null;
  for (const m of text.matchAll(new RegExp(`^ {0,3}(?:(${'`'}{3,}|~{3,})(.*)$|(?:${pattern}))`, 'gmu'))) {
    const [, marker, rest] = m;
    if (marker === undefined) {
      if (fence === null) yield m;
    } else if (fence === null) {
      if (!(marker[0] === '`' && rest!.includes('`'))) fence = marker;
    } else if (marker[0] === fence[0] && marker.length >= fence.length && rest!.trim() === '') fence = null;
  }
}

/**
 * The anchors of the headings a reader of the raw text sees: `#` lines outside the code blocks that
 * fences open and close line by line. CommonMark reads an HTML block (`<example>`) up to the next
 * blank line, fences in it included, so a fence that opens inside one and closes outside turns what
 * follows into code, headings too; to the agent that reads the file, and to its author, those
 * headings are there (held-out round 90: links to `## Separating Events from Effects`, after six
 * `<example>` blocks with code, reported as missing). And the ids of kramdown's attribute lists, and
 * the sections of a prompt written in XML tags.
 */
function textAnchors(text: string): string[] {
  const out: string[] = [];
  const slugger = new GithubSlugger();
  const lines = String.raw`#{1,6}[ \t]+(.*)$|<([a-z][\w-]*)(?:\s[^<>]*)?>[ \t]*$|.*?\{:\s*#([\w:.-]+)[^}\n]*\}`;
  for (const [, , , heading, tag, attribute] of outsideFences(text, lines)) {
    if (tag !== undefined) {
      // a section of a prompt written in XML tags, opened on a line of its own (`<prompt_caching>`):
      // `#prompt_caching` names it to the agent that reads the file (held-out round 94)
      out.push(tag);
    } else if (attribute !== undefined) {
      // a kramdown attribute list, on a heading or a line of its own (`{:#type-conversion}`): swift.org's
      // guidelines, copied into a skill (held-out round 93)
      out.push(attribute);
    } else {
      const closed = heading!.replace(/[ \t]+#+[ \t]*$/u, '');
      const id = EXPLICIT_ID.exec(closed);
      if (id) out.push(id[1]!);
      const title = closed.replace(ATTRIBUTE_LIST, '').trim();
      if (title !== '') out.push(slugger.slug(title));
    }
  }
  return out;
}
