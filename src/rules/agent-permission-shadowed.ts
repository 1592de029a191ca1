import { defineRule } from '../engine/rule.js';
import { shadowedAllows } from '../model/agents.js';
import { someOf } from '../util/text.js';
import { DOCS } from './lib/loaders.js';

/** An opencode agent allows skills by name before a catch-all that opencode lets win. */
export default defineRule({
  meta: {
    code: 'agent-permission-shadowed',
    defaultSeverity: 'error',
    certainty: 'definite',
    loadersOf: 'agent-file',
    loaders: {
      opencode: {
        does: 'rejects',
        source: DOCS.opencodePermissions,
        note: 'rules are evaluated by pattern match, with the last matching rule winning',
      },
      'claude-code': {
        does: 'ignores',
        source: DOCS.claudeCodeSubagents,
        note: 'a subagent has no permission.skill (its skills: lists what it loads)',
      },
    },
    category: 'cross-references',
    reads: ['agents'],
    description:
      'Report skills an OpenCode agent allows by name in `permission.skill` that a later catch-all or glob denies (the last matching rule wins)',
    scope: 'project',
    reference: 'new',
    messages: {
      shadowed: {
        message:
          'Agent `{agent}` allows {count} by name, but the later `"{pattern}": {action}` (line {line}) matches {them} too: OpenCode {does} {list}',
        help: 'OpenCode applies the last rule that matches a skill, so an allow written before a catch-all or glob never applies. Write `"{pattern}": {action}` first and the allows after it.',
      },
    },
  },
  check({ project, report }) {
    for (const agent of project.agents) {
      if (agent.loader !== 'opencode') continue;
      const shadowed = shadowedAllows(agent);
      if (shadowed.length === 0) continue;
      const by = shadowed[0]!.by;
      const names = shadowed.map((s) => `\`${s.allow.pattern}\``);
      report({
        messageId: 'shadowed',
        data: {
          agent: agent.name,
          count: shadowed.length === 1 ? '1 skill' : `${shadowed.length} skills`,
          pattern: by.pattern,
          action: by.action,
          does: by.action === 'ask' ? 'asks before it loads' : 'denies',
          line: by.line,
          them: shadowed.length === 1 ? 'it' : 'them',
          list: someOf(names),
        },
        at: { file: agent.file, ...(agent.permissionAt ?? { line: by.line, column: by.column }) },
        related: [
          { message: `\`"${by.pattern}": ${by.action}\`, the last rule that matches`, file: agent.file, line: by.line, column: by.column },
          ...shadowed.map((s) => ({
            message: `\`${s.allow.pattern}\`: allowed here, denied below`,
            file: agent.file,
            line: s.allow.line,
            column: s.allow.column,
          })),
        ],
      });
    }
  },
});
