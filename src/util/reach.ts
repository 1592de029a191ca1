/** Reachability over several start states of the combined graph. */
import { reachableFrom, type StateGraph } from '../graph/graph.js';

/** States reachable from at least one of `starts` (the starts included). */
export function reachableFromAny(g: StateGraph, starts: readonly string[]): Set<string> {
  const seen = new Set<string>();
  for (const s of starts) {
    if (seen.has(s)) continue;
    for (const r of reachableFrom(g, s)) seen.add(r);
  }
  return seen;
}
