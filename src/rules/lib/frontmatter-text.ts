/** Where a frontmatter value is written in the text, for --fix (no YAML parser: one line, one scalar). */
import type { SourceFile } from '../../model/types.js';

export interface InlineScalar {
  /** offsets of the value's content (inside the quotes, if any) */
  start: number;
  end: number;
  content: string;
  quote: '' | '"' | "'";
}

/**
 * The scalar value written after the key at `line`/`column` on the same line: plain, or quoted
 * without escapes. Null for anything else (block scalars, flow collections, values that continue on
 * the next line, escapes).
 */
export function inlineScalar(file: SourceFile, line: number, column: number): InlineScalar | null {
  const lineStart = file.lineStarts[line - 1];
  if (lineStart === undefined) return null;
  const next = file.lineStarts[line];
  const lineText = file.text.slice(lineStart, next === undefined ? file.text.length : next).replace(/\r?\n$/u, '');
  const from = column - 1;
  const key = /^(?:"[^"\\]*"|'[^']*'|[^:\s][^:]*?)[ \t]*:[ \t]*/u.exec(lineText.slice(from));
  if (!key) return null;
  const at = from + key[0].length;
  const rest = lineText.slice(at);
  let content: string;
  let quote: InlineScalar['quote'] = '';
  let after: string;
  if (rest.startsWith('"') || rest.startsWith("'")) {
    quote = rest[0] as '"' | "'";
    const close = rest.indexOf(quote, 1);
    if (close < 0) return null;
    content = rest.slice(1, close);
    if (content.includes('\\') || (quote === "'" && rest[close + 1] === "'")) return null;
    after = rest.slice(close + 1);
  } else {
    if (rest === '' || /^[[\]{}>|&*!%@`#]/u.test(rest) || /^[-?:](?:\s|$)/u.test(rest)) return null;
    const comment = /[ \t]+#/u.exec(rest);
    content = (comment ? rest.slice(0, comment.index) : rest).trimEnd();
    after = rest.slice(content.length);
  }
  if (!/^[ \t]*(?:#.*)?$/u.test(after)) return null;
  const start = lineStart + at + (quote ? 1 : 0);
  return { start, end: start + content.length, content, quote };
}
