/** Text helpers shared by the parsers and rules: decoding, line tables, offsets → positions. */

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Decode UTF-8 (a BOM is dropped); null when the bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** Offsets at which each line starts (`\n` ends a line; `\r\n` counts as one break). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line and column of a UTF-16 offset. */
export function positionAt(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}

/** The lines of a text without their line breaks (a trailing `\r` is dropped). */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.endsWith('\r')) lines[i] = l.slice(0, -1);
  }
  return lines;
}

/**
 * Number of lines as an editor shows them: 0 for empty text, and a final line break
 * does not start another line.
 */
export function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

/** UTF-8 byte length. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The longest prefix of `text` that is at most `max` characters, never splitting a surrogate pair. */
export function truncateChars(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/** Length in Unicode code points (what a user counts as characters). */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Normalise a heading or config name for comparison: trimmed, single spaces, lower case. */
export function sectionKey(title: string): string {
  return title.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * A text that is a slot to fill in, not a value: the whole of it one placeholder in template syntax
 * (`<skill-name>`, `{name}`, `{{ name }}`, `${NAME}`, `$NAME`, `[skill-name]`), as in the skeleton a
 * collection copies new skills from, or an output template a skill fills in.
 */
export function isPlaceholderValue(text: string): boolean {
  return /^(?:<[^<>]+>|\{\{[^{}]+\}\}|\$?\{[^{}]+\}|\[[^[\]]+\]|\$[A-Z][A-Z0-9_]*)$/u.test(text.trim());
}

/** Characters that would let text written to a terminal or a message be read as something else: controls, bidi overrides, line separators. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text from a checked file or a file name as loopkit writes it: control characters (an escape
 * sequence a terminal would obey), bidirectional overrides and line separators written as escapes
 * (`\u001b`, `\u202e`, `\n`), except the characters in `keep` (a message's own line breaks).
 */
export function escapeControls(text: string, keep = ''): string {
  return text.replace(UNSAFE, (c) => (keep.includes(c) ? c : (NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)));
}

/** The first three of a list (each as `show` writes it) and how many more: `a, b, c and 4 more` (a long list in a message). */
export function someOf(list: readonly string[], show: (item: string) => string = (item) => item): string {
  return `${list.slice(0, 3).map(show).join(', ')}${list.length > 3 ? ` and ${list.length - 3} more` : ''}`;
}
