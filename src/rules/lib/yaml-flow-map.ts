/**
 * --fix for a frontmatter map written in flow style (`metadata: {a: b}`): the same entries as a
 * block map of indented lines, each key and value kept exactly as written. Loaded only when a fix
 * needs it (it brings the YAML parser).
 */
import { isMap, isScalar, parseDocument, type Node as YamlNode, type Pair } from 'yaml';
import type { SourceFile } from '../../model/types.js';
import type { TextEdit } from '../../util/edits.js';

/**
 * The edit that turns the flow map of top-level `key` into a block map, or null when it cannot be
 * done without changing more than the syntax: an empty map, nested collections, comments inside,
 * entries over several lines — or when the result would not read as the same data.
 * `fenceLine` is the 1-based line of the closing `---`; `keyColumn` the column of the key.
 */
export function flowMapToBlock(file: SourceFile, fenceLine: number, key: string, keyColumn: number): TextEdit | null {
  const base = file.lineStarts[1];
  const end = file.lineStarts[fenceLine - 1];
  if (base === undefined || end === undefined || end < base) return null;
  const raw = file.text.slice(base, end);
  const doc = parseDocument(raw, { uniqueKeys: true });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return null;
  const pair = (doc.contents.items as Pair<YamlNode, YamlNode>[]).find((p) => isScalar(p.key) && p.key.value === key);
  const map = pair?.value;
  if (!pair || !isMap(map) || !map.flow || !map.range || !pair.key?.range || map.items.length === 0) return null;
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
  const eol = raw.includes('\r\n') ? '\r\n' : '\n';
  const indent = ' '.repeat(keyColumn - 1 + 2);
  // on the key's line: replace from the colon; on a line of its own: replace that line's text
  const colon = raw.indexOf(':', pair.key.range[1]);
  const between = raw.slice(colon + 1, map.range[0]);
  let start: number;
  let text: string;
  if (/^[ \t]*$/u.test(between)) {
    start = colon + 1;
    text = entries.map((e) => `${eol}${indent}${e}`).join('');
  } else {
    start = raw.lastIndexOf('\n', map.range[0]) + 1;
    text = entries.map((e) => `${indent}${e}`).join(eol);
  }
  const fixed = raw.slice(0, start) + text + raw.slice(map.range[1]);
  const again = parseDocument(fixed, { uniqueKeys: true });
  if (again.errors.length > 0 || JSON.stringify(again.toJS()) !== JSON.stringify(doc.toJS())) return null;
  return { start: base + start, end: base + map.range[1], text };
}
