import { defineRule } from '../engine/rule.js';
import { firstMentionPlace } from './lib/state-mention.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'state-undeclared-in-skill',
    defaultSeverity: 'warning',
    certainty: 'definite',
    loaders: EVERY,
    category: 'states',
    reads: ['body', 'graph'],
    description: 'Require every state of the transition graph to be declared in some SKILL.md state model',
    scope: 'project',
    reference: 'improved',
    messages: {
      undeclared: {
        message: "State '{state}' appears in the handoff graph but is not declared in any SKILL.md State Model section",
        help: "Declare '{state}' in a SKILL.md under one of: {aliases}.",
      },
    },
  },
  check({ project, graph, config, report }) {
    const declared = new Set(project.skills.flatMap((s) => s.declaredStates.map((d) => d.name)));
    const aliases = config.state_model_aliases.join(', ');
    for (const state of graph.states) {
      if (declared.has(state)) continue;
      const place = firstMentionPlace(graph, state);
      if (!place) continue;
      const { edge, ...at } = place;
      report({
        messageId: 'undeclared',
        data: { state, aliases },
        at,
        skill: edge.skill,
        states: [state],
      });
    }
  },
});
