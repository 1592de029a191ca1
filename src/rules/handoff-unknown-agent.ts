import { defineRule } from '../engine/rule.js';
import { ALL_AGENTS } from '../model/agents.js';
import { similarName } from '../util/closest.js';
import { forEachHandoff } from './lib/handoffs.js';
import { EVERY } from './lib/loaders.js';

/** A handoff names an agent the project does not define, in a project that defines its agents. */
export default defineRule({
  meta: {
    code: 'handoff-unknown-agent',
    defaultSeverity: 'warning',
    certainty: 'definite',
    loaders: EVERY,
    category: 'cross-references',
    reads: ['frontmatter', 'loop', 'agents'],
    description: 'Check that the agent of every `handoff <skill> to <agent>` is defined, in a project that defines agents',
    scope: 'project',
    reference: 'new',
    messages: {
      unknown: {
        message: '`handoff {skill} to {agent}`: the project defines no agent `{agent}`{suggestion}',
        help: 'The project defines {count} ({where}); none is named `{agent}`. An agent defined only outside the project (a user-level folder) is not seen: define it in the project, or name it in `agents:` of .loopkit.yaml.',
      },
    },
  },
  check({ project, report }) {
    const agents = project.agents;
    if (agents.length === 0) return;
    const names = [...new Set(agents.map((a) => a.name))];
    const known = new Set(names);
    const where = [...new Set(agents.map((a) => a.file.slice(0, a.file.lastIndexOf('/') + 1)))].join(', ');
    forEachHandoff(project, (h, skill, file) => {
      if (h.agent === ALL_AGENTS || known.has(h.agent)) return;
      const like = similarName(h.agent, names);
      report({
        messageId: 'unknown',
        data: {
          skill: h.skill,
          agent: h.agent,
          suggestion: like === undefined ? '' : `; did you mean \`${like}\`?`,
          count: agents.length === 1 ? '1 agent' : `${agents.length} agents`,
          where,
        },
        at: { file, line: h.line, column: h.column },
        skill: skill.name,
      });
    });
  },
});
