import { defineRule } from '../engine/rule.js';
import { reportMissingEdge } from './lib/required-edge.js';
import { EVERY } from './lib/loaders.js';

/** Bug feedback loops: the QA and acceptance states must lead back to `bug_feedback_return_to`. */
export default defineRule({
  meta: {
    code: 'state-missing-bug-feedback',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'states',
    reads: ['graph'],
    description: 'Require a transition from the QA and acceptance states back to the bug-fix state',
    scope: 'project',
    reference: 'improved',
    messages: {
      missing: {
        message: '{state} must have a transition back to {to}',
        help: 'Add: transition {state} → {to}',
      },
    },
  },
  check(ctx) {
    const { config } = ctx;
    if (!config.bug_feedback_enabled) return;
    const to = config.bug_feedback_return_to;
    const checked = [
      { key: 'bug_feedback_qa_state', state: config.bug_feedback_qa_state },
      { key: 'bug_feedback_acceptance_state', state: config.bug_feedback_acceptance_state },
    ];
    for (const { key, state } of checked) {
      reportMissingEdge(ctx, 'missing', { watched: state, from: state, to, key }, { state, to });
    }
  },
});
