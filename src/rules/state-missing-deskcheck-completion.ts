import { defineRule } from '../engine/rule.js';
import { reportMissingEdge } from './lib/required-edge.js';
import { EVERY } from './lib/loaders.js';

/** Desk check pattern: `deskcheck_state → deskcheck_forward_to` must be a transition. */
export default defineRule({
  meta: {
    code: 'state-missing-deskcheck-completion',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'states',
    reads: ['graph'],
    description: 'Require the configured completion transition out of the desk-check state',
    scope: 'project',
    reference: 'improved',
    messages: {
      missing: {
        message: '{state} must have a transition to {to}',
        help: 'Add: transition {state} → {to}',
      },
    },
  },
  check(ctx) {
    if (!ctx.config.deskcheck_enabled) return;
    const state = ctx.config.deskcheck_state;
    const to = ctx.config.deskcheck_forward_to;
    reportMissingEdge(ctx, 'missing', { watched: state, from: state, to, key: 'deskcheck_forward_to' }, { state, to });
  },
});
