import { defineRule } from '../engine/rule.js';
import { similarName } from '../util/closest.js';
import { EVERY } from './lib/loaders.js';

/** The special handoff target that ends the story (Loop Language). */
const DONE = 'done';

/** `handoff <skill> to <agent>` lines attached to a transition must name a skill of the project. */
export default defineRule({
  meta: {
    code: 'constraints-unknown-handoff-target',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'constraints',
    reads: ['frontmatter', 'graph'],
    description: 'Require the skill of every transition handoff to exist in the skills directory',
    scope: 'project',
    reference: 'improved',
    messages: {
      unknown: {
        message: 'Skill `{skill}` transitions to unknown handoff target `{target}`',
        help: 'Skill `{target}` must exist in the skills directory.',
      },
      unknownClose: {
        message: 'Skill `{skill}` transitions to unknown handoff target `{target}`',
        help: 'Skill `{target}` must exist in the skills directory. Did you mean `{suggestion}`?',
      },
    },
  },
  check({ project, graph, report }) {
    const names = [...new Set(project.skills.map((s) => s.name))];
    const known = new Set(names);
    for (const edge of graph.edges) {
      const h = edge.handoff;
      if (!h || h.skill === DONE || known.has(h.skill)) continue;
      const suggestion = similarName(h.skill, names);
      report({
        messageId: suggestion ? 'unknownClose' : 'unknown',
        data: suggestion ? { skill: edge.skill, target: h.skill, suggestion } : { skill: edge.skill, target: h.skill },
        at: { file: edge.file, line: h.line, column: h.skillColumn },
        skill: edge.skill,
      });
    }
  },
});
