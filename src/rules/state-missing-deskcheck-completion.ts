import { defineRule } from '../engine/rule.js';
import { hasEdge } from '../graph/graph.js';
import { configKeyPlace } from '../util/config-place.js';
import { firstMentionRelated } from '../util/state-mention.js';

/** Desk check pattern: `deskcheck_state → deskcheck_forward_to` must be a transition. */
export default defineRule({
  meta: {
    code: 'state-missing-deskcheck-completion',
    defaultSeverity: 'error',
    category: 'states',
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
  check({ project, graph, config, report }) {
    const state = config.deskcheck_state;
    const to = config.deskcheck_forward_to;
    if (!config.deskcheck_enabled || !graph.out.has(state) || hasEdge(graph, state, to)) return;
    const related = firstMentionRelated(graph, state);
    report({
      messageId: 'missing',
      data: { state, to },
      at: configKeyPlace(project, 'deskcheck_forward_to'),
      related: related ? [related] : [],
    });
  },
});
