import { defineRule } from '../engine/rule.js';
import { hasEdge } from '../graph/graph.js';
import { configKeyPlace } from '../util/config-place.js';
import { firstMentionRelated } from '../util/state-mention.js';

/** Desk check pattern: `deskcheck_entry_from → deskcheck_state` must be a transition. */
export default defineRule({
  meta: {
    code: 'state-missing-deskcheck-entry',
    defaultSeverity: 'error',
    category: 'states',
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
  check({ project, graph, config, report }) {
    const state = config.deskcheck_state;
    const from = config.deskcheck_entry_from;
    if (!config.deskcheck_enabled || !graph.out.has(state) || hasEdge(graph, from, state)) return;
    const related = firstMentionRelated(graph, state);
    report({
      messageId: 'missing',
      data: { from, state },
      at: configKeyPlace(project, 'deskcheck_entry_from'),
      related: related ? [related] : [],
    });
  },
});
