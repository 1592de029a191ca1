import { defineRule } from '../engine/rule.js';
import { canReachTerminal, reachableFrom, type Edge, type StateGraph } from '../graph/graph.js';
import { edgeLabel } from './lib/state-mention.js';

/** Split `states` (graph order) into groups connected by transitions in either direction. */
function regions(g: StateGraph, states: readonly string[]): string[][] {
  const inSet = new Set(states);
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const start of states) {
    if (seen.has(start)) continue;
    seen.add(start);
    const members = new Set([start]);
    const queue = [start];
    while (queue.length > 0) {
      const s = queue.shift()!;
      const next = [...(g.out.get(s) ?? []).map((e) => e.to), ...(g.in.get(s) ?? []).map((e) => e.from)];
      for (const n of next) {
        if (inSet.has(n) && !seen.has(n)) {
          seen.add(n);
          members.add(n);
          queue.push(n);
        }
      }
    }
    out.push(states.filter((s) => members.has(s)));
  }
  return out;
}

/**
 * States that a run can get into (from an entry point that could finish) but never leave for a
 * terminal state: the agent loops forever. One diagnostic per connected trap region.
 */
export default defineRule({
  meta: {
    code: 'sim-trapped-cycle',
    defaultSeverity: 'error',
    category: 'simulation',
    description: 'Disallow reachable cycles from which no terminal state can be reached',
    scope: 'project',
    reference: 'new',
    messages: {
      trapped: {
        message: 'States {states} can never reach a terminal state: a run that enters them loops forever',
        help:
          'A run that takes the transition {entered} can never finish. Add a transition from one of ' +
          'these states to a state that leads to a terminal state, for example a halt to a halted-* state.',
      },
    },
  },
  check({ graph, report }) {
    const finishes = canReachTerminal(graph);
    const starts = graph.entryPoints.filter((e) => finishes.has(e));
    const reachable = reachableFrom(graph, starts);
    const trapped = graph.states.filter((s) => reachable.has(s) && !finishes.has(s));
    for (const region of regions(graph, trapped)) {
      // a lone trapped state only loops on itself: sim-self-loop-only reports it
      if (region.length < 2) continue;
      const members = new Set(region);
      const entering: Edge | undefined = graph.edges.find((e) => !members.has(e.from) && members.has(e.to));
      const inside = graph.edges.filter((e) => members.has(e.from));
      const at = entering ?? inside[0]!;
      report({
        messageId: 'trapped',
        data: { states: region.map((s) => `'${s}'`).join(', '), entered: edgeLabel(at) },
        at: { file: at.file, line: at.line, column: entering ? at.toColumn : at.column },
        skill: at.skill,
        related: inside.map((e) => ({ message: edgeLabel(e), file: e.file, line: e.line, column: e.column })),
      });
    }
  },
});
