/**
 * --fix for frontmatter values, rewritten in block style: a flow map (`metadata: {a: b}`) as a block
 * map of indented lines, a comma-separated string (`allowed-tools: Read, Grep`) as a block list.
 * Every edit is checked before it is offered: the frontmatter, parsed again, must read as the same
 * data except the value the fix is meant to change. Loaded only when a fix needs it (it brings the
 * YAML parser).
 */
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, parseDocument, stringify, type Document, type Node as YamlNode, type Pair } from 'yaml';
import type { SourceFile } from '../../model/types.js';
import type { TextEdit } from '../../util/edits.js';

interface TopLevelPair {
  /** the frontmatter's text (between the fences) and its offset in the file */
  raw: string;
  base: number;
  doc: Document.Parsed;
  pair: Pair<YamlNode, YamlNode>;
  /** offset in `raw` of the colon after the key */
  colon: number;
}

/** The top-level entry `key` of the frontmatter that ends at `fenceLine` (its closing `---`), when it parses. */
function topLevelPair(file: SourceFile, fenceLine: number, key: string): TopLevelPair | null {
  const base = file.lineStarts[1];
  const end = file.lineStarts[fenceLine - 1];
  if (base === undefined || end === undefined || end < base) return null;
  const raw = file.text.slice(base, end);
  const doc = parseDocument(raw, { uniqueKeys: true });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return null;
  const pair = (doc.contents.items as Pair<YamlNode, YamlNode>[]).find((p) => isScalar(p.key) && p.key.value === key);
  if (!pair?.key?.range) return null;
  return { raw, base, doc, pair, colon: raw.indexOf(':', pair.key.range[1]) };
}

/** The edit of `raw` from `start` to `end`, when the frontmatter then reads as `expected`. */
function checkedEdit(found: TopLevelPair, start: number, end: number, text: string, expected: unknown): TextEdit | null {
  const { raw, base } = found;
  const again = parseDocument(raw.slice(0, start) + text + raw.slice(end), { uniqueKeys: true });
  if (again.errors.length > 0 || !isDeepStrictEqual(again.toJS(), expected)) return null;
  return { start: base + start, end: base + end, text };
}

const lineBreakOf = (raw: string) => (raw.includes('\r\n') ? '\r\n' : '\n');

/** Indentation of a block under a top-level key at `keyColumn`. */
const indentUnder = (keyColumn: number) => ' '.repeat(keyColumn - 1 + 2);

/**
 * The edit that turns the flow map of top-level `key` into a block map, or null when it cannot be
 * done without changing more than the syntax: an empty map, nested collections, comments inside,
 * entries over several lines — or when the result would not read as the same data.
 * `fenceLine` is the 1-based line of the closing `---`; `keyColumn` the column of the key.
 */
export function flowMapToBlock(file: SourceFile, fenceLine: number, key: string, keyColumn: number): TextEdit | null {
  const found = topLevelPair(file, fenceLine, key);
  const map = found?.pair.value;
  if (!found || !isMap(map) || !map.flow || !map.range || map.items.length === 0) return null;
  const { raw, colon } = found;
  const entries: string[] = [];
  let covered = raw.slice(map.range[0], map.range[1]);
  for (const item of map.items as Pair<YamlNode, YamlNode>[]) {
    const k = item.key;
    const v = item.value;
    if (!isScalar(k) || !isScalar(v) || !k.range || !v.range) return null;
    const ks = raw.slice(k.range[0], k.range[1]);
    const vs = raw.slice(v.range[0], v.range[1]);
    if (/[\r\n]/u.test(ks + vs) || ks === '' || vs === '') return null;
    entries.push(`${ks}: ${vs}`);
    covered = covered.replace(ks, '').replace(vs, '');
  }
  // a comment inside the braces would be lost
  if (covered.includes('#')) return null;
  const eol = lineBreakOf(raw);
  const indent = indentUnder(keyColumn);
  // on the key's line: replace from the colon; on a line of its own: replace that line's text
  const between = raw.slice(colon + 1, map.range[0]);
  if (/^[ \t]*$/u.test(between)) {
    return checkedEdit(found, colon + 1, map.range[1], entries.map((e) => `${eol}${indent}${e}`).join(''), found.doc.toJS());
  }
  const start = raw.lastIndexOf('\n', map.range[0]) + 1;
  return checkedEdit(found, start, map.range[1], entries.map((e) => `${indent}${e}`).join(eol), found.doc.toJS());
}

/** A list item as YAML: plain when it reads back as itself, else quoted. */
function itemText(item: string): string {
  const text = stringify(item, { lineWidth: 0 }).replace(/\r?\n$/u, '');
  return /[\r\n]/u.test(text) ? JSON.stringify(item) : text;
}

/**
 * The edit that writes the string value of top-level `key` (a scalar on the key's line: plain,
 * quoted or a block scalar) as a block list of `items`, one `- item` line each, or null when the
 * value is not such a scalar or the frontmatter would not then read as before with `items` as the
 * value of `key`. A comment after the value stays, after the last item.
 */
export function scalarToBlockList(
  file: SourceFile,
  fenceLine: number,
  key: string,
  keyColumn: number,
  items: readonly string[],
): TextEdit | null {
  const found = topLevelPair(file, fenceLine, key);
  const value = found?.pair.value;
  if (!found || !isScalar(value) || !value.range || items.length === 0) return null;
  const { raw, colon } = found;
  // the value starts on the key's line, with nothing but blanks before it
  if (!/^[ \t]*$/u.test(raw.slice(colon + 1, value.range[0]))) return null;
  const eol = lineBreakOf(raw);
  const indent = indentUnder(keyColumn);
  const text = items.map((item) => `${eol}${indent}- ${itemText(item)}`).join('');
  const expected = { ...(found.doc.toJS() as Record<string, unknown>), [key]: [...items] };
  // a block scalar's range takes its last line break along: that stays
  let end = value.range[1];
  while (end > colon + 1 && (raw[end - 1] === '\n' || raw[end - 1] === '\r')) end--;
  return checkedEdit(found, colon + 1, end, text, expected);
}
