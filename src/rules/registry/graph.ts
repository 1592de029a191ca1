/** Rules of the "graph" group (see src/rules/index.ts). */
import type { Rule } from '../../engine/rule.js';
import constraintsEmptyGraph from '../constraints-empty-graph.js';
import constraintsHandoffUnhandled from '../constraints-handoff-unhandled.js';
import constraintsUnknownHandoffTarget from '../constraints-unknown-handoff-target.js';
import graphDeadEnd from '../graph-dead-end.js';
import graphSelfLoopOnly from '../graph-self-loop-only.js';
import graphUnreachableState from '../graph-unreachable-state.js';
import simError from '../sim-error.js';
import simSelfLoopOnly from '../sim-self-loop-only.js';
import simTrappedCycle from '../sim-trapped-cycle.js';
import simUnreachableTerminal from '../sim-unreachable-terminal.js';
import stateEnforcedMissing from '../state-enforced-missing.js';
import stateMissingBugFeedback from '../state-missing-bug-feedback.js';
import stateMissingDeskcheckCompletion from '../state-missing-deskcheck-completion.js';
import stateMissingDeskcheckEntry from '../state-missing-deskcheck-entry.js';
import stateMissingDeskcheckFeedback from '../state-missing-deskcheck-feedback.js';

export const graphRules: Rule[] = [
  constraintsEmptyGraph,
  constraintsHandoffUnhandled,
  constraintsUnknownHandoffTarget,
  graphDeadEnd,
  graphSelfLoopOnly,
  graphUnreachableState,
  simError,
  simSelfLoopOnly,
  simTrappedCycle,
  simUnreachableTerminal,
  stateEnforcedMissing,
  stateMissingBugFeedback,
  stateMissingDeskcheckCompletion,
  stateMissingDeskcheckEntry,
  stateMissingDeskcheckFeedback,
];
