/**
 * Quoted passages in prose: an example of what a user says or asks, a quotation. Straight or curly
 * double quotes, straight or curly single quotes, guillemets, Japanese and Chinese corner brackets
 * (「…」, 『…』).
 */

const OPENERS = /[“«„‘「『]/gu;
const CLOSERS = /[”»’」』]/gu;
// a straight single quote opens after a space or bracket and closes before one (not `user's`)
const SINGLE_OPENS = /(?<=^|[\s([{:,])'(?=\S)/gu;
const SINGLE_CLOSES = /(?<=\S)'(?=$|[\s.,;:!?)\]}])/gu;

/** Is offset `at` of `text` inside a quoted passage? */
export function insideQuotes(text: string, at: number): boolean {
  const before = text.slice(0, at);
  const count = (re: RegExp) => (before.match(re) ?? []).length;
  const single = count(SINGLE_OPENS) > count(SINGLE_CLOSES);
  return count(/"/gu) % 2 === 1 || count(OPENERS) > count(CLOSERS) || single;
}

/**
 * Is the piece of `text` from `at` to `end` inside a quoted passage that says more than that piece
 * ("分类 C:\Users\Documents", "sort D:\Downloads for me"): words someone says, in which the piece is
 * their data? A quote that holds the piece alone (`"scripts\run.py"`) is only a way to write it.
 */
export function insideQuotedUtterance(text: string, at: number, end: number): boolean {
  if (!insideQuotes(text, at)) return false;
  const before = text.slice(0, at);
  const opener = Math.max(before.lastIndexOf('"'), before.lastIndexOf("'"), ...[...before.matchAll(OPENERS)].map((m) => m.index));
  const rest = text.slice(end);
  const closer = rest.search(/["'”»’」』]/u);
  const words = (s: string) => /[\p{L}\p{N}]/u.test(s);
  return words(before.slice(opener + 1)) || words(closer === -1 ? rest : rest.slice(0, closer));
}
