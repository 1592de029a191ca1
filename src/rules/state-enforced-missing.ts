import { defineRule } from '../engine/rule.js';
import { configKeyPlace } from './lib/config-place.js';
import { EVERY } from './lib/loaders.js';

/** Every `enforced_states` entry must appear in some transition. */
export default defineRule({
  meta: {
    code: 'state-enforced-missing',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'states',
    reads: ['graph'],
    description: 'Require every enforced state of the configuration to appear in a transition',
    scope: 'project',
    reference: 'improved',
    messages: {
      missing: {
        message: "Enforced state '{name}' ({agent}) is not present in any transition graph",
        help: "Add a transition that includes '{name}' as a source or target state.",
      },
      missingDescribed: {
        message: "Enforced state '{name}' ({agent}) is not present in any transition graph",
        help: "Add a transition that includes '{name}' as a source or target state. {description}",
      },
    },
  },
  check({ project, graph, config, report }) {
    const states = new Set(graph.states);
    config.enforced_states.forEach((s, i) => {
      if (states.has(s.name)) return;
      report({
        messageId: s.description === '' ? 'missing' : 'missingDescribed',
        data: { name: s.name, agent: s.agent, description: s.description },
        at: configKeyPlace(project, `enforced_states.${i}.name`),
      });
    });
  },
});
