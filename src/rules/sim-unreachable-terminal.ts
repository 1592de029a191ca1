import { defineRule } from '../engine/rule.js';
import { describePath, simulate } from '../graph/simulate.js';
import { edgeLabel } from './lib/state-mention.js';

const plural = (n: number) => `${n} transition${n === 1 ? '' : 's'}`;

/** Every entry point must reach a terminal state within `max_iterations` transitions. */
export default defineRule({
  meta: {
    code: 'sim-unreachable-terminal',
    defaultSeverity: 'error',
    category: 'simulation',
    description: 'Require every entry point to reach a terminal state within max_iterations transitions',
    scope: 'project',
    reference: 'improved',
    messages: {
      noTerminals: {
        message: "Entry point '{state}' cannot reach any terminal state (no terminals exist)",
        help:
          "Every state in the graph has an outgoing transition, so no run that starts at '{state}' can end. " +
          'Add transitions so every entry point can reach a terminal (sink) state, such as done or a halted-* state.',
      },
      noPath: {
        message: "Entry point '{state}' cannot reach any terminal state within the configured budget",
        help:
          "No sequence of transitions leads from '{state}' to a terminal state, whatever the budget. " +
          'Add transitions so every entry point can reach a terminal (sink) state.',
      },
      overBudget: {
        message: "Entry point '{state}' cannot reach any terminal state within the configured budget",
        help:
          'The shortest path to a terminal state needs {needed} ({path}), but max_iterations is {budget}. ' +
          'Add a shorter path, or set max_iterations to at least {length} in .loopkit.yaml.',
      },
    },
  },
  check({ graph, config, report }) {
    const budget = config.max_iterations;
    for (const r of simulate(graph, budget)) {
      if (r.withinBudget) continue;
      const first = graph.out.get(r.entry)![0]!;
      const at = { file: first.file, line: first.line, column: first.fromColumn };
      if (r.path === null) {
        report({
          messageId: graph.terminals.length === 0 ? 'noTerminals' : 'noPath',
          data: { state: r.entry },
          at,
          skill: first.skill,
        });
        continue;
      }
      report({
        messageId: 'overBudget',
        data: { state: r.entry, needed: plural(r.path.length), length: r.path.length, path: describePath(r.path), budget },
        at,
        skill: first.skill,
        related: r.path.map((e) => ({ message: edgeLabel(e), file: e.file, line: e.line, column: e.column })),
      });
    }
  },
});
