/**
 * Exact source positions for text found in mdast values. A `text` node's value has backslash
 * escapes and character references decoded and container prefixes (`> `, list indentation) removed;
 * an `inlineCode` value lacks its backtick fences. These helpers map an index in such a value back
 * to the offset in the file text where that character is written.
 */
import type { Definition, Image, InlineCode, Link, Text } from 'mdast';
import type { SourceFile } from '../model/types.js';
import { positionAt } from '../util/text.js';

const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/u;
const CHARACTER_REFERENCE = /^&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|[A-Za-z][A-Za-z0-9]{0,31});/u;

/** UTF-16 length of what a numeric character reference decodes to. */
function numericLength(code: number): number {
  return code > 0xffff && code <= 0x10ffff ? 2 : 1;
}

/** Where the content of an inline code span starts in the source (after the fence and a stripped space). */
function inlineCodeStart(source: string, start: number, end: number): number {
  let i = start;
  while (i < end && source[i] === '`') i++;
  const fence = i - start;
  const content = source.slice(i, Math.max(i, end - fence));
  if (content.length >= 2 && /^[ \r\n]/u.test(content) && /[ \r\n]$/u.test(content) && /[^ \r\n]/u.test(content)) {
    i += content.startsWith('\r\n') ? 2 : 1;
  }
  return i;
}

/**
 * For every index of `node.value` (and one past its end), the source offset of that character.
 * Characters the parser dropped from the value are skipped; an escape or a character reference maps
 * to where it starts. Null when the node has no position.
 */
export function valueOffsets(source: string, node: Text | InlineCode): number[] | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return null;
  const value = node.value;
  const isText = node.type === 'text';
  const map = new Array<number>(value.length + 1);
  let i = isText ? start : inlineCodeStart(source, start, end);
  let j = 0;
  while (j < value.length && i < end) {
    const c = source[i]!;
    if (isText && c === '\\' && i + 1 < end && ASCII_PUNCTUATION.test(source[i + 1]!) && value[j] === source[i + 1]) {
      map[j++] = i;
      i += 2;
      continue;
    }
    if (isText && c === '&') {
      const m = CHARACTER_REFERENCE.exec(source.slice(i, i + 40));
      if (m && !value.startsWith(m[0], j)) {
        const after = i + m[0].length;
        let len: number;
        if (m[1] !== undefined) len = numericLength(Number.parseInt(m[1], 10));
        else if (m[2] !== undefined) len = numericLength(Number.parseInt(m[2], 16));
        else if (after >= end) len = value.length - j;
        else {
          // a named reference decodes to one or two code points: resynchronise on the next source character
          len = 1;
          while (len < 4 && j + len < value.length && value[j + len] !== source[after]) len++;
          if (j + len < value.length && value[j + len] !== source[after]) len = 1;
        }
        for (let k = 0; k < len && j < value.length; k++) map[j++] = i;
        i = after;
        continue;
      }
    }
    if (c === value[j]) {
      map[j++] = i++;
      continue;
    }
    i++; // a character the parser dropped (indentation, `>` markers, trailing spaces, fences)
  }
  const last = Math.min(i, end);
  while (j <= value.length) map[j++] = last;
  return map;
}

const cache = new WeakMap<Text | InlineCode, number[] | null>();

/** 1-based line/column of index `index` of an mdast text or inline-code value. */
export function valuePosition(file: SourceFile, node: Text | InlineCode, index: number): { line: number; column: number } {
  let map = cache.get(node);
  if (map === undefined) {
    map = valueOffsets(file.text, node);
    cache.set(node, map);
  }
  const offset = map ? map[Math.max(0, Math.min(index, map.length - 1))]! : (node.position?.start.offset ?? 0);
  return positionAt(file.lineStarts, offset);
}

/**
 * 1-based line/column where the destination of a link, image or definition is written; the node's
 * start when the destination cannot be found verbatim (escapes, references inside it).
 */
export function urlPosition(file: SourceFile, node: Link | Image | Definition): { line: number; column: number } {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return { line: node.position?.start.line ?? 1, column: node.position?.start.column ?? 1 };
  let from = start;
  if (node.type === 'link' && node.children.length > 0) from = node.children[node.children.length - 1]!.position?.end.offset ?? start;
  if (node.type === 'definition') from = Math.max(start, file.text.indexOf(']:', start));
  const slice = file.text.slice(from, end);
  const raw = node.url;
  const at = raw === '' ? -1 : slice.indexOf(raw);
  return positionAt(file.lineStarts, at >= 0 ? from + at : start);
}
