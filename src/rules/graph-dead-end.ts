import { defineRule } from '../engine/rule.js';
import { pathFromEntries } from '../graph/graph.js';
import { DONE_TARGET, enforcedAgent, terminalKind, unknownHaltedReason } from '../graph/terminal.js';
import { edgeLabel } from './lib/state-mention.js';
import { stepsRelated } from './lib/witness.js';
import { EVERY } from './lib/loaders.js';

const END_HINT = 'or, if the story ends there, list it under enforced_states with an empty agent in .loopkit.yaml.';

/**
 * A state that no transition leaves and that is not a terminal state (src/graph/terminal.ts: done,
 * halted-<reason> for a configured halt reason, an enforced state with no agent, a state entered
 * with `handoff done`): an agent that gets there has nowhere to go.
 */
export default defineRule({
  meta: {
    code: 'graph-dead-end',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'graph',
    reads: ['graph'],
    description: 'Disallow states that no transition leaves unless they are terminal (done, halted-<reason>, or enforced with no agent)',
    scope: 'project',
    reference: 'new',
    messages: {
      deadEnd: {
        message: "State '{state}' is a dead end: no transition leaves it, and it is not a terminal state",
        help: `A run that takes the transition {entered} stops in '{state}' with nowhere to go. Add a transition out of '{state}', ${END_HINT}`,
      },
      handedOff: {
        message: "State '{state}' is a dead end: no transition leaves it, and it is not a terminal state",
        help:
          "The transition {entered} hands '{state}' to `{target}`, but no contract says what happens next. " +
          `Add a transition out of '{state}' to the LOOP.md of \`{target}\`, ${END_HINT}`,
      },
      haltedUnknown: {
        message: "State '{state}' is a dead end: no transition leaves it, and it is not a terminal state",
        help:
          "'{state}' is a terminal halt state only when '{reason}' is a halt reason, and halt_reasons has {reasons}. " +
          "Add '{reason}' to halt_reasons in .loopkit.yaml, or halt into one of the configured halted-* states.",
      },
      agentAssigned: {
        message: "State '{state}' is a dead end: no transition leaves it, and it is not a terminal state",
        help:
          "'{state}' is an enforced state with the agent '{agent}': an agent works there, so it needs a way out. " +
          "Add a transition out of '{state}', or, if the story ends there, give it an empty agent in .loopkit.yaml.",
      },
    },
  },
  check({ graph, config, report }) {
    // graph.terminals: the states no transition leaves
    for (const state of graph.terminals) {
      if (terminalKind(state, config, graph) !== null) continue;
      const entering = graph.in.get(state)![0]!;
      const entered = edgeLabel(entering);
      const reason = unknownHaltedReason(state, config);
      const agent = enforcedAgent(state, config);
      const target = entering.handoff && entering.handoff.skill !== DONE_TARGET ? entering.handoff.skill : undefined;
      const common = {
        at: { file: entering.file, line: entering.line, column: entering.toColumn },
        skill: entering.skill,
        // the proof: how a run gets there from an entry point
        related: stepsRelated(pathFromEntries(graph, state) ?? []),
        states: [state],
      };
      if (reason !== undefined) {
        const reasons = config.halt_reasons.length > 0 ? config.halt_reasons.join(', ') : '(none)';
        report({ messageId: 'haltedUnknown', data: { state, reason, reasons }, ...common });
      } else if (agent !== undefined) {
        report({ messageId: 'agentAssigned', data: { state, agent }, ...common });
      } else if (target !== undefined) {
        report({ messageId: 'handedOff', data: { state, entered, target }, ...common });
      } else {
        report({ messageId: 'deadEnd', data: { state, entered }, ...common });
      }
    }
  },
});
