import { defineRule } from '../engine/rule.js';
import { hasHaltBound } from '../graph/simulate.js';
import { edgesRelated } from './lib/witness.js';
import { EVERY } from './lib/loaders.js';

/**
 * A non-empty graph in which every state has an outgoing transition, none is an entry point, and no
 * halt bound ends a loop.
 */
export default defineRule({
  meta: {
    code: 'sim-error',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'simulation',
    reads: ['graph'],
    description: 'Require a terminal state in a graph that has no entry point',
    scope: 'project',
    reference: 'improved',
    messages: {
      noTerminals: {
        message: 'No terminal states exist in the graph (all states have outbound edges)',
        help:
          'Every state has both an incoming and an outgoing transition, so no run can start or finish. ' +
          'Add a transition to a terminal state (one with no outgoing transition), such as done or a halted-* state.',
      },
    },
  },
  check({ graph, report }) {
    const first = graph.edges[0];
    if (!first || graph.terminals.length > 0 || graph.entryPoints.length > 0) return;
    if (graph.states.some((s) => hasHaltBound(graph, s))) return;
    report({
      messageId: 'noTerminals',
      at: { file: first.file, line: first.line, column: first.column },
      skill: first.skill,
      // the proof: a transition out of every state
      related: edgesRelated(
        'goes on',
        graph.states.map((s) => graph.out.get(s)![0]!),
      ),
      states: graph.states,
    });
  },
});
