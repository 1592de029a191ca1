/**
 * Self-loop-only states: every outgoing transition of the state leads back to the state itself, and
 * none carries a halt bound (a bounded self-loop ends after its N iterations).
 */
import type { Edge, StateGraph } from '../../graph/graph.js';
import { hasHaltBound } from '../../graph/simulate.js';

export interface SelfLoopOnly {
  state: string;
  /** the first self-loop transition of the state (graph order) */
  edge: Edge;
}

/** Every unbounded self-loop-only state, in order of first appearance, with its first self-loop. */
export function selfLoopOnlyStates(g: StateGraph): SelfLoopOnly[] {
  const out: SelfLoopOnly[] = [];
  for (const state of g.states) {
    const edges = g.out.get(state) ?? [];
    if (edges.length > 0 && edges.every((e) => e.to === state) && !hasHaltBound(g, state)) out.push({ state, edge: edges[0]! });
  }
  return out;
}
