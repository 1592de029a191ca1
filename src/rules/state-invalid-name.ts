import { defineRule } from '../engine/rule.js';
import { firstMentionPlace } from './lib/state-mention.js';
import { stateNameProblem } from '../util/naming.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'state-invalid-name',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'states',
    reads: ['graph'],
    description: 'Require state names in transitions to be lower-case kebab-case with a hyphen (or an enforced state)',
    scope: 'project',
    reference: 'new',
    messages: {
      invalid: {
        message: "State '{state}' {problem}",
        help: 'State names are lower-case kebab-case with at least one hyphen, e.g. `in-dev` or `halted-stall`. A one-word state such as `done` is allowed only when it is listed under enforced_states in .loopkit.yaml.',
      },
    },
  },
  check({ graph, config, report }) {
    const enforced = new Set(config.enforced_states.map((e) => e.name));
    for (const state of graph.states) {
      const problem = stateNameProblem(state, enforced);
      if (problem === null) continue;
      const place = firstMentionPlace(graph, state);
      if (!place) continue;
      const { edge, ...at } = place;
      report({
        messageId: 'invalid',
        data: { state, problem },
        at,
        skill: edge.skill,
        states: [state],
      });
    }
  },
});
