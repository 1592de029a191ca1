import { defineRule } from '../engine/rule.js';
import { hasEdge } from '../graph/graph.js';
import { configKeyPlace } from '../util/config-place.js';
import { firstMentionRelated } from '../util/state-mention.js';

/** Desk check pattern: `deskcheck_state → deskcheck_feedback_to` must be a transition. */
export default defineRule({
  meta: {
    code: 'state-missing-deskcheck-feedback',
    defaultSeverity: 'error',
    category: 'states',
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
  check({ project, graph, config, report }) {
    const state = config.deskcheck_state;
    const to = config.deskcheck_feedback_to;
    if (!config.deskcheck_enabled || !graph.out.has(state) || hasEdge(graph, state, to)) return;
    const related = firstMentionRelated(graph, state);
    report({
      messageId: 'missing',
      data: { state, to },
      at: configKeyPlace(project, 'deskcheck_feedback_to'),
      related: related ? [related] : [],
    });
  },
});
