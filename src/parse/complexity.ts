/**
 * A cheap, linear scan that estimates what parsing a markdown file will cost, and refuses the
 * shapes on which the parser's time explodes or exceeds a bound: thousands of emphasis delimiters
 * or link brackets in one paragraph (resolved against each other: quadratic), containers (block
 * quotes, lists) nested hundreds deep on one line or deep over many lines, and very many blocks
 * (each paragraph, heading, list item or table row costs a fixed share). Real documents stay far
 * below these limits; a file beyond one is not parsed, and `file-too-complex` says which construct,
 * where, and the limit. The costs are measured in docs/performance.md (bench/pathological.mjs).
 */
import type { Complexity } from '../model/types.js';

/** Emphasis/strikethrough delimiter runs (`*`, `_`, `~`) in one paragraph. */
export const MAX_DELIMITER_RUNS = 1500;
/** Opening brackets (`[`) in one paragraph. */
export const MAX_BRACKETS = 3000;
/** Block quotes and list items opened on one line. */
export const MAX_NESTING = 200;
/** The estimated parse time, in milliseconds on the benchmark machine, a file may take. */
export const BUDGET_MS = 1000;

/** Estimated milliseconds per unit of each construct (bench/pathological.mjs, 2 cores). */
const COST = {
  /** a block: a paragraph, heading, list item, quote line, table row or fence */
  block: 0.25,
  /** the square of the delimiter runs of a paragraph */
  runs2: 5e-5,
  /** the square of the brackets of a paragraph */
  brackets2: 4.5e-6,
  /** a container level beyond the third on a line */
  deep: 0.025,
};
/** How file-too-complex names each construct of COST. */
const CONSTRUCT: Record<keyof typeof COST, string> = {
  block: 'blocks (paragraphs, headings, list items, table rows)',
  runs2: 'emphasis delimiters in crowded paragraphs (sum of squares)',
  brackets2: 'link brackets in crowded paragraphs (sum of squares)',
  deep: 'levels of nesting beyond the third, summed over lines',
};
const SHALLOW = 3;

const CONTAINER = /^[ \t]{0,3}(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))[ \t]*/u;
const NEW_BLOCK = /^[ \t]*(?:#{1,6}(?:[ \t]|$)|[-*+][ \t]|\d{1,9}[.)][ \t]|>|\||```|~~~)/u;
const INDENTED_ITEM = /^( +)(?:[-*+][ \t]|\d{1,9}[.)][ \t]|>)/u;

function nesting(line: string): number {
  let depth = 0;
  let rest = line;
  for (;;) {
    const m = CONTAINER.exec(rest);
    if (!m || m[0] === '') return depth;
    depth++;
    if (depth > MAX_NESTING) return depth;
    rest = rest.slice(m[0].length);
  }
}

export function tooComplex(text: string): Complexity | null {
  const total = { block: 0, runs2: 0, brackets2: 0, deep: 0 };
  /** where each construct first became significant */
  const first = { block: 1, runs2: 0, brackets2: 0, deep: 0 };
  let runs = 0;
  let brackets = 0;
  let blockStart = 1;
  let lineNo = 0;
  let blankBefore = true;
  const finishBlock = (): Complexity | null => {
    if (runs > MAX_DELIMITER_RUNS)
      return { construct: 'emphasis delimiters in one paragraph', measure: runs, limit: MAX_DELIMITER_RUNS, line: blockStart };
    if (brackets > MAX_BRACKETS)
      return { construct: 'link brackets in one paragraph', measure: brackets, limit: MAX_BRACKETS, line: blockStart };
    if (runs > 50 && first.runs2 === 0) first.runs2 = blockStart;
    if (brackets > 50 && first.brackets2 === 0) first.brackets2 = blockStart;
    total.runs2 += runs * runs;
    total.brackets2 += brackets * brackets;
    runs = 0;
    brackets = 0;
    return null;
  };
  for (let start = 0; start <= text.length;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    lineNo++;
    const blank = /^[ \t]*\r?$/u.test(line);
    // a new inline context starts after a blank line and at a heading, a list item, a quote, a table row
    if (blank || NEW_BLOCK.test(line)) {
      const found = finishBlock();
      if (found) return found;
      blockStart = blank ? lineNo + 1 : lineNo;
    }
    if (!blank) {
      if (blankBefore || NEW_BLOCK.test(line)) total.block++;
      const depth = nesting(line);
      if (depth > MAX_NESTING)
        return { construct: 'block quotes and lists nested on one line', measure: depth, limit: MAX_NESTING, line: lineNo };
      // nesting by indentation: a list item or quote indented by n columns is about n / 2 levels deep
      const indented = INDENTED_ITEM.exec(line);
      const levels = depth + (indented ? Math.floor(indented[1]!.length / 2) : 0);
      if (levels > SHALLOW) {
        if (first.deep === 0) first.deep = lineNo;
        total.deep += levels - SHALLOW;
      }
      for (let i = 0; i < line.length; i++) {
        const c = line.charCodeAt(i);
        if (c === 42 || c === 95 || c === 126) {
          runs++;
          while (i + 1 < line.length && line.charCodeAt(i + 1) === c) i++;
        } else if (c === 91) brackets++;
      }
    }
    blankBefore = blank;
    if (end === text.length) break;
    start = end + 1;
  }
  const found = finishBlock();
  if (found) return found;
  // the estimate: refuse when it is over budget, naming the construct that costs most
  const parts = (Object.keys(COST) as (keyof typeof COST)[]).map((k) => ({ k, ms: total[k] * COST[k] }));
  const ms = parts.reduce((a, p) => a + p.ms, 0);
  if (ms <= BUDGET_MS) return null;
  const { k } = parts.sort((a, b) => b.ms - a.ms)[0]!;
  return { construct: CONSTRUCT[k], measure: total[k], limit: Math.floor(BUDGET_MS / COST[k]), line: first[k] || 1 };
}
