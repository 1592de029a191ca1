import { defineRule } from '../engine/rule.js';
import { reportMissingEdge } from './lib/required-edge.js';
import { EVERY } from './lib/loaders.js';

/** Desk check pattern: `deskcheck_entry_from → deskcheck_state` must be a transition. */
export default defineRule({
  meta: {
    code: 'state-missing-deskcheck-entry',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'states',
    reads: ['graph'],
    description: 'Require the configured transition into the desk-check state',
    scope: 'project',
    reference: 'improved',
    messages: {
      missing: {
        message: '{from} must have a transition to {state}',
        help: 'Add: transition {from} → {state}',
      },
    },
  },
  check(ctx) {
    if (!ctx.config.deskcheck_enabled) return;
    const state = ctx.config.deskcheck_state;
    const from = ctx.config.deskcheck_entry_from;
    reportMissingEdge(ctx, 'missing', { watched: state, from, to: state, key: 'deskcheck_entry_from' }, { from, state });
  },
});
