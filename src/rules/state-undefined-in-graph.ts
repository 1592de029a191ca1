import { defineRule } from '../engine/rule.js';
import { isStateLike } from '../util/naming.js';

export default defineRule({
  meta: {
    code: 'state-undefined-in-graph',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'states',
    reads: ['frontmatter', 'body', 'graph'],
    description: 'Require every state declared in a SKILL.md state model to appear in the transition graph',
    scope: 'skill',
    reference: 'improved',
    messages: {
      undefined: {
        message: 'Skill `{skill}` references state `{state}` in its State Model but it is not in the handoff graph',
        help: 'Add a transition involving `{state}` to some LOOP.md, or remove it from the State Model.',
      },
    },
  },
  check({ project, graph, config, report }) {
    // a project without any transition has no graph to compare with (constraints-empty-graph says so)
    if (graph.edges.length === 0) return;
    const enforced = new Set(config.enforced_states.map((e) => e.name));
    const skillNames = new Set(project.skills.map((s) => s.name));
    const states = new Set(graph.states);
    for (const skill of project.skills) {
      for (const d of skill.declaredStates) {
        if (states.has(d.name) || !isStateLike(d.name, enforced, skillNames)) continue;
        report({
          messageId: 'undefined',
          data: { skill: skill.name, state: d.name },
          at: { file: skill.skillFile.path, line: d.line, column: d.column },
          skill: skill.name,
        });
      }
    }
  },
});
