import type { Related } from '../engine/diagnostic.js';
import { defineRule } from '../engine/rule.js';
import { agentNamed, ALL_AGENTS, skillAccess, type AgentDef } from '../model/agents.js';
import { forEachHandoff } from './lib/handoffs.js';
import { EVERY } from './lib/loaders.js';

/** A handoff that ends the story names no skill. */
const DONE = 'done';

/** What the agent's file says, as the witness of the denial. */
function witness(agent: AgentDef, skill: string): Related[] {
  const out: Related[] = [];
  const access = skillAccess(agent, skill);
  if (agent.permissionAt !== null) {
    const what = agent.loader === 'opencode' ? '`permission.skill`' : '`skills:`';
    out.push({ message: `${agent.name}: ${what} does not allow \`${skill}\``, file: agent.file, ...agent.permissionAt });
  }
  const rule = access.rule;
  if (rule !== undefined && (rule.line !== agent.permissionAt?.line || rule.column !== agent.permissionAt?.column)) {
    out.push({
      message: `${agent.name}: \`"${rule.pattern}": ${rule.action}\` decides`,
      file: agent.file,
      line: rule.line,
      column: rule.column,
    });
  }
  return out;
}

/** A handoff hands a skill to an agent whose file says it may not load that skill. */
export default defineRule({
  meta: {
    code: 'handoff-skill-denied',
    defaultSeverity: 'error',
    certainty: 'definite',
    // the receiving agent's loader decides, whatever loads the skill that hands off
    loaders: EVERY,
    category: 'cross-references',
    reads: ['frontmatter', 'loop', 'agents'],
    description:
      'Require the agent a handoff names to be allowed to load the skill it is handed (OpenCode `permission.skill`, Claude Code `skills:`)',
    scope: 'project',
    reference: 'new',
    messages: {
      denied: {
        message: '`handoff {skill} to {agent}`: agent `{agent}` may not load skill `{skill}` ({file})',
        help: '{why} Allow the skill in {file}, or hand it to an agent that may load it{others}.',
      },
    },
  },
  check({ project, report }) {
    const agents = project.agents;
    if (agents.length === 0) return;
    forEachHandoff(project, (h, skill, file) => {
      if (h.agent === ALL_AGENTS || h.skill === DONE) return;
      const agent = agentNamed(agents, h.agent);
      if (agent === undefined || skillAccess(agent, h.skill).verdict !== 'denied') return;
      // the agents whose files say they load it (not those that say nothing of skills)
      const others = agents
        .filter((a) => a !== agent && (a.skillRules !== null || a.preload !== null) && skillAccess(a, h.skill).verdict === 'allowed')
        .map((a) => `\`${a.name}\``);
      report({
        messageId: 'denied',
        data: {
          skill: h.skill,
          agent: h.agent,
          file: agent.file,
          why:
            agent.loader === 'opencode'
              ? `OpenCode refuses a skill its \`permission.skill\` denies (${agent.file}:${agent.permissionAt?.line ?? 1}).`
              : `A Claude Code subagent loads the skills its \`skills:\` lists and does not inherit the session's (${agent.file}:${agent.permissionAt?.line ?? 1}).`,
          others: others.length === 0 ? '' : ` (${others.join(', ')} ${others.length === 1 ? 'does' : 'do'})`,
        },
        at: { file, line: h.line, column: h.column },
        skill: skill.name,
        related: witness(agent, h.skill),
      });
    });
  },
});
