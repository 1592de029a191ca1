import { defineRule } from '../engine/rule.js';
import { connectedGroups, reachableFrom } from '../graph/graph.js';
import { selfLoopOnlyStates } from './lib/self-loops.js';
import { edgesRelated } from './lib/witness.js';
import { EVERY } from './lib/loaders.js';

/** At most this many entry points are named in the hint. */
const NAMED_ENTRIES = 3;

/**
 * States that no entry point reaches — an island of states that lead only to each other (and maybe
 * to states the rest of the graph reaches too): no run ever enters them. One diagnostic per island.
 */
export default defineRule({
  meta: {
    code: 'graph-unreachable-state',
    defaultSeverity: 'warning',
    certainty: 'definite',
    loaders: EVERY,
    category: 'graph',
    reads: ['graph'],
    description: 'Disallow states that no entry point can reach (islands of states no run ever enters)',
    scope: 'project',
    reference: 'new',
    messages: {
      one: {
        message: "State '{states}' cannot be reached from any entry point",
        help:
          "Every transition into '{states}' starts at '{states}' itself, and no entry point (a state with no incoming transition: {entries}) " +
          'leads there, so no run ever enters it. Add a transition into it from a state a run reaches, or remove it.',
      },
      many: {
        message: 'States {states} cannot be reached from any entry point',
        help:
          'No entry point (a state with no incoming transition: {entries}) leads to these states: every transition into them starts ' +
          'inside the group, so no run ever enters them. Add a transition into one of them from a state a run reaches, or remove them.',
      },
    },
  },
  check({ graph, report }) {
    // with no entry point at all, every state is "unreachable": sim-error (no end either) or nothing to say
    if (graph.entryPoints.length === 0) return;
    const reachable = reachableFrom(graph, graph.entryPoints);
    const unreachable = graph.states.filter((s) => !reachable.has(s));
    // a lone self-loop-only state is graph-self-loop-only's
    const selfLoops = new Set(selfLoopOnlyStates(graph).map((x) => x.state));
    const shown = graph.entryPoints.slice(0, NAMED_ENTRIES).map((s) => `'${s}'`);
    const entries = shown.join(', ') + (graph.entryPoints.length > NAMED_ENTRIES ? ', …' : '');
    for (const island of connectedGroups(graph, unreachable)) {
      if (island.length === 1 && selfLoops.has(island[0]!)) continue;
      const members = new Set(island);
      // every transition into the island starts inside it, so its transitions are those that leave its states
      const edges = graph.edges.filter((e) => members.has(e.from));
      const first = edges[0]!;
      report({
        messageId: island.length === 1 ? 'one' : 'many',
        data: { states: island.length === 1 ? island[0]! : island.map((s) => `'${s}'`).join(', '), entries },
        at: { file: first.file, line: first.line, column: first.fromColumn },
        skill: first.skill,
        related: edgesRelated('in the island', edges),
        states: island,
      });
    }
  },
});
