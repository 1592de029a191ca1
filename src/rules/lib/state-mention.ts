/** A `related` pointer at the first transition that names a state. */
import type { Related } from '../../engine/diagnostic.js';
import { firstMention, type Edge, type StateGraph } from '../../graph/graph.js';

/** "`transition a → b`"-style label of an edge: `a → b`. */
export function edgeLabel(e: Edge): string {
  return `${e.from} → ${e.to}`;
}

/** Where `state` is first written in the graph (graph order): the state token of that transition. */
export function firstMentionPlace(g: StateGraph, state: string): { edge: Edge; file: string; line: number; column: number } | undefined {
  const m = firstMention(g, state);
  if (!m) return undefined;
  const { edge, asTarget } = m;
  return { edge, file: edge.file, line: edge.line, column: asTarget ? edge.toColumn : edge.fromColumn };
}

/** The first transition (graph order) that mentions `state`, located at the state token. */
export function firstMentionRelated(g: StateGraph, state: string): Related | undefined {
  const m = firstMentionPlace(g, state);
  if (!m) return undefined;
  return { message: `'${state}' first appears in transition ${edgeLabel(m.edge)}`, file: m.file, line: m.line, column: m.column };
}
