/** Inline suppression: comments → line ranges (with code aliases resolved) → is a diagnostic silenced? */
import type { SuppressionComment } from '../model/types.js';
import type { Diagnostic } from './diagnostic.js';

export interface SuppressedRange {
  /** canonical codes; empty = every code */
  codes: readonly string[];
  fromLine: number;
  toLine: number;
}

/**
 * `disable-next-line` covers the line after the comment, `disable-line` the comment's own lines,
 * `disable` everything up to the `enable` that names one of its codes (or names none), else to the
 * end of the file. `canonical` maps a written code or alias to its code.
 */
export function suppressedRanges(
  comments: readonly SuppressionComment[],
  lastLine: number,
  canonical: (code: string) => string,
): SuppressedRange[] {
  const out: SuppressedRange[] = [];
  const open: { codes: string[]; line: number }[] = [];
  for (const c of comments) {
    const codes = c.codes.map(canonical);
    if (c.verb === 'disable-next-line') out.push({ codes, fromLine: c.endLine + 1, toLine: c.endLine + 1 });
    else if (c.verb === 'disable-line') out.push({ codes, fromLine: c.line, toLine: c.endLine });
    else if (c.verb === 'disable') open.push({ codes, line: c.line });
    else {
      for (let i = open.length - 1; i >= 0; i--) {
        const o = open[i]!;
        if (codes.length > 0 && o.codes.length > 0 && !o.codes.some((x) => codes.includes(x))) continue;
        out.push({ codes: o.codes, fromLine: o.line, toLine: c.line });
        open.splice(i, 1);
      }
    }
  }
  for (const o of open) out.push({ codes: o.codes, fromLine: o.line, toLine: lastLine });
  return out;
}

export function isSuppressed(d: Diagnostic, byFile: ReadonlyMap<string, readonly SuppressedRange[]>): boolean {
  if (d.line === null) return false;
  const line = d.line;
  return (byFile.get(d.file) ?? []).some(
    (r) => line >= r.fromLine && line <= r.toLine && (r.codes.length === 0 || r.codes.includes(d.code)),
  );
}
