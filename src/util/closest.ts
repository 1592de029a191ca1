/**
 * "Did you mean" support: the candidate a word is most likely a typo of. A suggestion must be a
 * likely typo — one edit for words shorter than 8 characters, two up to 15, three beyond — or an
 * inflected form of the candidate (`stalled` → `stall`), so a different word (`write` vs `wait`) is
 * never "corrected". Edit distance is Levenshtein's, from `fastest-levenshtein`.
 */
import { distance } from 'fastest-levenshtein';

/** The candidate nearest to `word` (ties: first in list) when it is a likely typo, else undefined. Case-insensitive; never `word` itself. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const limit = w.length < 8 ? 1 : w.length < 16 ? 2 : 3;
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const lc = c.toLowerCase();
    if (lc === w) continue;
    const d = distance(w, lc);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  if (bestD <= limit) return best;
  // an inflected form of a candidate (`stalled` for `stall`, `verifying` for `verify`)
  let stem: string | undefined;
  for (const c of candidates) {
    const lc = c.toLowerCase();
    if (lc !== w && lc.length >= 4 && w.startsWith(lc) && w.length - lc.length <= 3 && (!stem || lc.length > stem.length)) stem = c;
  }
  return stem;
}

/** `; did you mean <x>?` (x quoted with `quote`) when `word` looks like a typo of a candidate, else ''. */
export function didYouMean(word: string, candidates: readonly string[], quote: (s: string) => string = (s) => `'${s}'`): string {
  const c = closest(word, candidates);
  return c === undefined ? '' : `; did you mean ${quote(c)}?`;
}

/**
 * The name a kebab-case token most likely means, when it is a renamed or mistyped version of one:
 * a likely typo (`closest`), or the same words give or take some (`tdd-loops` for
 * `running-tdd-loops`, `code-review` for `reviewing-code`): at least two words in common, or
 * most of the words of the shorter one.
 */
export function similarName(token: string, names: readonly string[]): string | undefined {
  const typo = closest(token, names);
  if (typo !== undefined) return typo;
  const words = (s: string) =>
    new Set(
      s
        .toLowerCase()
        .split(/[-_]+/u)
        .filter((w) => w.length > 1)
        .map(stemWord),
    );
  const mine = words(token);
  let best: string | undefined;
  let bestScore = 0;
  for (const name of names) {
    if (name.toLowerCase() === token.toLowerCase()) continue;
    const theirs = words(name);
    let shared = 0;
    for (const w of mine) if (theirs.has(w)) shared++;
    const smaller = Math.min(mine.size, theirs.size);
    if (smaller === 0 || shared === 0) continue;
    const score = shared / Math.max(mine.size, theirs.size);
    if ((shared >= 2 || shared / smaller >= 1) && score > bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return best;
}

/** A crude stem, so `review`, `reviews` and `reviewing` are one word. */
function stemWord(w: string): string {
  return w.replace(/(?:ing|ers|er|es|s|ed)$/u, '') || w;
}
