/**
 * What a run may do from a state: the transitions out of it, with their triggers, handoffs and
 * halt bounds. The one answer the editor gives (hover, completion); `trace` and `check` answer the
 * same question from the same graph. Kept to this one function so that it can be pointed at the
 * graph/runtime layer's shared answer.
 */
import type { Edge, StateGraph } from '../graph/graph.js';

export function legalMoves(graph: StateGraph, state: string): readonly Edge[] {
  return graph.out.get(state) ?? [];
}
