/** Self-loop-only states: every outgoing transition of the state leads back to the state itself. */
import type { Edge, StateGraph } from '../../graph/graph.js';

export interface SelfLoopOnly {
  state: string;
  /** the first self-loop transition of the state (graph order) */
  edge: Edge;
}

/** Every self-loop-only state, in order of first appearance, with its first self-loop. */
export function selfLoopOnlyStates(g: StateGraph): SelfLoopOnly[] {
  const out: SelfLoopOnly[] = [];
  for (const state of g.states) {
    const edges = g.out.get(state) ?? [];
    if (edges.length > 0 && edges.every((e) => e.to === state)) out.push({ state, edge: edges[0]! });
  }
  return out;
}
