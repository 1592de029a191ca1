import { defineRule } from '../engine/rule.js';
import { reachableFrom } from '../graph/graph.js';
import { describeRun, endsByHalt, simulate } from '../graph/simulate.js';
import { edgesRelated, stepsRelated } from './lib/witness.js';
import { EVERY } from './lib/loaders.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Every entry point must be able to end — reach a terminal state, or be stopped by a declared halt
 * bound — within `max_iterations` iterations (src/graph/simulate.ts has the model).
 */
export default defineRule({
  meta: {
    code: 'sim-unreachable-terminal',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'simulation',
    reads: ['graph'],
    description: 'Require every entry point to reach a terminal state (or a declared halt bound) within max_iterations iterations',
    scope: 'project',
    reference: 'improved',
    messages: {
      noTerminals: {
        message: "Entry point '{state}' cannot reach any terminal state (no terminals exist)",
        help:
          "Every state in the graph has an outgoing transition and no halt bound stops the loops a run from '{state}' can enter, so it never ends. " +
          'Add transitions so every entry point can reach a terminal (sink) state, such as done or a halted-* state.',
      },
      noPath: {
        message: "Entry point '{state}' cannot reach any terminal state within the configured budget",
        help:
          "No sequence of transitions leads from '{state}' to a terminal state or a halt bound, whatever the budget. " +
          'Add transitions so every entry point can reach a terminal (sink) state.',
      },
      overBudget: {
        message: "Entry point '{state}' cannot reach any terminal state within the configured budget",
        help:
          'The shortest path to a terminal state needs {needed} ({path}), but max_iterations is {budget}. ' +
          'Add a shorter path, or set max_iterations to at least {length} in .loopkit.yaml.',
      },
      overBudgetHalt: {
        message: "Entry point '{state}' cannot reach any terminal state within the configured budget",
        help:
          'The shortest run ends by a halt bound and needs {needed}: {path} (a halt counts its declared iterations). ' +
          'max_iterations is {budget}. Add a shorter path to a terminal state, lower the halt bound, ' +
          'or set max_iterations to at least {length} in .loopkit.yaml.',
      },
    },
  },
  check({ graph, config, report }) {
    const budget = config.max_iterations;
    for (const r of simulate(graph, budget)) {
      if (r.withinBudget) continue;
      const first = graph.out.get(r.entry)![0]!;
      const at = { file: first.file, line: first.line, column: first.fromColumn };
      if (r.run === null) {
        // the proof: every transition a run from the entry point can take, none of which ends
        const reachable = reachableFrom(graph, r.entry);
        report({
          messageId: graph.terminals.length === 0 ? 'noTerminals' : 'noPath',
          data: { state: r.entry },
          at,
          skill: first.skill,
          related: edgesRelated(
            `reachable from '${r.entry}'`,
            graph.edges.filter((e) => reachable.has(e.from)),
          ),
          states: [r.entry],
        });
        continue;
      }
      const halted = endsByHalt(r.run);
      report({
        messageId: halted ? 'overBudgetHalt' : 'overBudget',
        data: {
          state: r.entry,
          needed: plural(r.run.cost, halted ? 'iteration' : 'transition'),
          length: r.run.cost,
          path: describeRun(r.run),
          budget,
        },
        at,
        skill: first.skill,
        related: stepsRelated(r.run.steps),
        states: [r.entry],
      });
    }
  },
});
