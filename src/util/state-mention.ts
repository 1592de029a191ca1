/** A `related` pointer at the first transition that names a state. */
import type { Related } from '../engine/diagnostic.js';
import { firstMention, type Edge, type StateGraph } from '../graph/graph.js';

/** "`transition a → b`"-style label of an edge: `a → b`. */
export function edgeLabel(e: Edge): string {
  return `${e.from} → ${e.to}`;
}

/** The first transition (graph order) that mentions `state`, located at the state token. */
export function firstMentionRelated(g: StateGraph, state: string): Related | undefined {
  const m = firstMention(g, state);
  if (!m) return undefined;
  const { edge, asTarget } = m;
  return {
    message: `'${state}' first appears in transition ${edgeLabel(edge)}`,
    file: edge.file,
    line: edge.line,
    column: asTarget ? edge.toColumn : edge.fromColumn,
  };
}
