import { defineRule } from '../engine/rule.js';
import { connectedGroups, pathFromEntries, reachableFrom, type Edge } from '../graph/graph.js';
import { canEnd } from '../graph/simulate.js';
import { edgeLabel } from './lib/state-mention.js';
import { edgesRelated, stepsRelated } from './lib/witness.js';
import { EVERY } from './lib/loaders.js';

/**
 * States that a run can get into (from an entry point that could finish) but never leave for a
 * terminal state, and whose loops no halt bound ends: the agent loops forever. One diagnostic per
 * connected trap region.
 */
export default defineRule({
  meta: {
    code: 'sim-trapped-cycle',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'simulation',
    reads: ['graph'],
    description: 'Disallow reachable cycles that can neither reach a terminal state nor end by a halt bound',
    scope: 'project',
    reference: 'new',
    messages: {
      trapped: {
        message: 'States {states} can never reach a terminal state: a run that enters them loops forever',
        help:
          'A run that takes the transition {entered} can never finish. Add a transition from one of ' +
          'these states to a state that leads to a terminal state, for example a halt to a halted-* state, ' +
          'or bound the loop with `halt <reason> after N iterations` on one of its transitions.',
      },
    },
  },
  check({ graph, report }) {
    const finishes = canEnd(graph);
    const starts = graph.entryPoints.filter((e) => finishes.has(e));
    const reachable = reachableFrom(graph, starts);
    const trapped = graph.states.filter((s) => reachable.has(s) && !finishes.has(s));
    for (const region of connectedGroups(graph, trapped)) {
      // a lone trapped state only loops on itself: sim-self-loop-only reports it
      if (region.length < 2) continue;
      const members = new Set(region);
      const entering: Edge | undefined = graph.edges.find((e) => !members.has(e.from) && members.has(e.to));
      const inside = graph.edges.filter((e) => members.has(e.from));
      const at = entering ?? inside[0]!;
      // the proof: how a run gets in (from an entry point), then the transitions it is stuck with
      const path = entering ? (pathFromEntries(graph, entering.from) ?? []) : [];
      const steps = entering ? [...path, entering] : [];
      report({
        messageId: 'trapped',
        data: { states: region.map((s) => `'${s}'`).join(', '), entered: edgeLabel(at) },
        at: { file: at.file, line: at.line, column: entering ? at.toColumn : at.column },
        skill: at.skill,
        related: [...stepsRelated(steps), ...edgesRelated('in the trap', inside)],
        states: region,
      });
    }
  },
});
