/**
 * Whole-word matching for prose heuristics: case-insensitive, Unicode-aware, and a word that is
 * part of a file name or dotted identifier (`LOOP.md`, `validate.py`, `re.check`) is not a word.
 * Hyphens separate words (`feedback-loop` contains `loop`), as `\b` does.
 */

const W = '[\\p{L}\\p{M}\\p{N}_]';

/**
 * A global, case-insensitive regex matching any alternative of `alternation` (a regex source,
 * e.g. `check(?:s|ed|ing)?|verify`) as a whole word.
 */
export function wordRegex(alternation: string, flags = 'giu'): RegExp {
  return new RegExp(`(?<!${W}|${W}\\.)(?:${alternation})(?!${W}|\\.${W})`, flags);
}

export interface WordMatch {
  /** the text as written */
  word: string;
  /** UTF-16 offset in the searched text */
  index: number;
}

/** Every match of a global regex in `text`, in order. */
export function matchAll(re: RegExp, text: string): WordMatch[] {
  const out: WordMatch[] = [];
  const g = re.global ? re : new RegExp(re.source, `${re.flags}g`);
  g.lastIndex = 0;
  for (let m = g.exec(text); m !== null; m = g.exec(text)) {
    out.push({ word: m[0], index: m.index });
    if (m[0] === '') g.lastIndex++;
  }
  return out;
}

/** The first match of a regex in `text` from `from`, or null. */
export function firstMatch(re: RegExp, text: string, from = 0): WordMatch | null {
  const g = re.global ? re : new RegExp(re.source, `${re.flags}g`);
  g.lastIndex = from;
  const m = g.exec(text);
  return m === null ? null : { word: m[0], index: m.index };
}
