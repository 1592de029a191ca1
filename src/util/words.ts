/**
 * Whole-word matching for prose heuristics: case-insensitive, Unicode-aware, and a word that is
 * part of a file name or dotted identifier (`LOOP.md`, `validate.py`, `re.check`) is not a word.
 * Hyphens separate words (`feedback-loop` contains `loop`), as `\b` does.
 */

const W = '[\\p{L}\\p{M}\\p{N}_]';
const WORD_BEFORE = new RegExp(`${W}$|${W}\\.$`, 'u');

/** Regexes made by wordRegex: the word boundary before a match is checked by matchAll/firstMatch. */
const WORD_REGEXES = new WeakSet<RegExp>();

/**
 * A global, case-insensitive regex matching any alternative of `alternation` (a regex source,
 * e.g. `check(?:s|ed|ing)?|verify`) as a whole word. Use it with matchAll / firstMatch: the
 * boundary before a match is checked there (a lookbehind would be tried at every position of the
 * text, which makes the regex many times slower on long prose).
 */
export function wordRegex(alternation: string, flags = 'giu'): RegExp {
  const re = new RegExp(`(?:${alternation})(?!${W}|\\.${W})`, flags);
  WORD_REGEXES.add(re);
  return re;
}

/** Is the match at `index` a word start (not preceded by a word character, or one and a dot)? */
function wordStart(re: RegExp, text: string, index: number): boolean {
  return !WORD_REGEXES.has(re) || index === 0 || !WORD_BEFORE.test(text.slice(Math.max(0, index - 3), index));
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
    if (!wordStart(re, text, m.index)) {
      g.lastIndex = m.index + 1;
      continue;
    }
    out.push({ word: m[0], index: m.index });
    if (m[0] === '') g.lastIndex++;
  }
  return out;
}

/** The first match of a regex in `text` from `from`, or null. */
export function firstMatch(re: RegExp, text: string, from = 0): WordMatch | null {
  const g = re.global ? re : new RegExp(re.source, `${re.flags}g`);
  g.lastIndex = from;
  for (let m = g.exec(text); m !== null; m = g.exec(text)) {
    if (wordStart(re, text, m.index)) return { word: m[0], index: m.index };
    g.lastIndex = m.index + 1;
  }
  return null;
}
