/** Text edits (offset ranges replaced by new text): choosing edits that do not conflict, applying them. */

export interface TextEdit {
  /** UTF-16 offsets into the text: [start, end) is replaced by `text` (start === end: an insertion) */
  start: number;
  end: number;
  text: string;
}

/**
 * The edits that can be applied together, in order: sorted by position (ties keep the given
 * order), dropping any edit that overlaps one already taken or inserts at the same place as one
 * (their order would be a guess; a later pass applies them to the new text).
 */
export function compatibleEdits<E extends TextEdit>(edits: readonly E[]): E[] {
  const sorted = edits.map((e, i) => ({ e, i })).sort((a, b) => a.e.start - b.e.start || a.e.end - b.e.end || a.i - b.i);
  const out: E[] = [];
  let last: TextEdit | null = null;
  for (const { e } of sorted) {
    if (e.start === e.end && e.text === '') continue;
    if (last) {
      if (e.start < last.end) continue;
      if (e.start === last.end && (e.start === e.end || last.start === last.end)) continue;
    }
    out.push(e);
    last = e;
  }
  return out;
}

/** Apply edits that do not overlap (as compatibleEdits returns them). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** The smallest edit that turns `before` into `after` (common prefix and suffix kept). */
export function minimalEdit(before: string, after: string): TextEdit | null {
  if (before === after) return null;
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { start, end: before.length - end, text: after.slice(start, after.length - end) };
}
