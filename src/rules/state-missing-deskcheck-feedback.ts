import { defineRule } from '../engine/rule.js';
import { reportMissingEdge } from './lib/required-edge.js';
import { EVERY } from './lib/loaders.js';

/** Desk check pattern: `deskcheck_state → deskcheck_feedback_to` must be a transition. */
export default defineRule({
  meta: {
    code: 'state-missing-deskcheck-feedback',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'states',
    reads: ['graph'],
    description: 'Require the configured feedback transition out of the desk-check state',
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
    if (!ctx.config.deskcheck_enabled) return;
    const state = ctx.config.deskcheck_state;
    const to = ctx.config.deskcheck_feedback_to;
    reportMissingEdge(ctx, 'missing', { watched: state, from: state, to, key: 'deskcheck_feedback_to' }, { state, to });
  },
});
