import { pathFromEntries, reachableFrom } from '../graph/graph.js';
import { defineRule } from '../engine/rule.js';
import { selfLoopOnlyStates } from './lib/self-loops.js';
import { stepsRelated } from './lib/witness.js';
import { EVERY } from './lib/loaders.js';

/**
 * Self-loop-only states that an entry point reaches: a run that gets there never moves on (a
 * self-loop with a halt bound ends, and is not reported).
 */
export default defineRule({
  meta: {
    code: 'sim-self-loop-only',
    defaultSeverity: 'warning',
    certainty: 'definite',
    loaders: EVERY,
    category: 'simulation',
    reads: ['graph'],
    description: 'Disallow reachable states whose only transitions lead back to themselves',
    scope: 'project',
    reference: 'improved',
    messages: {
      selfLoop: {
        message: "State '{state}' has a self-loop as its only transition (may loop forever)",
        help: 'Add a transition to a different state so the loop can make progress.',
      },
    },
  },
  check({ graph, report }) {
    const reachable = reachableFrom(graph, graph.entryPoints);
    for (const { state, edge } of selfLoopOnlyStates(graph)) {
      if (!reachable.has(state)) continue;
      report({
        messageId: 'selfLoop',
        data: { state },
        at: { file: edge.file, line: edge.line, column: edge.column },
        skill: edge.skill,
        // the proof: how a run gets there from an entry point, then the self-loop
        related: stepsRelated([...(pathFromEntries(graph, state) ?? []), edge]),
        states: [state],
      });
    }
  },
});
