import { defineRule } from '../engine/rule.js';
import { DOCS } from './lib/loaders.js';

/** An agent file's frontmatter is not valid YAML: a strict loader rejects it. */
export default defineRule({
  meta: {
    code: 'agent-invalid-frontmatter',
    defaultSeverity: 'error',
    certainty: 'definite',
    loadersOf: 'agent-file',
    loaders: {
      'claude-code': {
        does: 'rejects',
        source: DOCS.claudeCodeSubagents,
        note: 'subagents are Markdown files with YAML frontmatter; where it does not parse, Claude Code quotes the plain values that hold `: ` or a YAML indicator and reads it again (2.1.69), and rejects only what that reading does not parse either',
      },
      opencode: {
        does: 'accepts',
        source: DOCS.opencodeAgents,
        note: 'markdown agents with frontmatter; where the YAML does not parse, OpenCode falls back to a sanitized parse that quotes such values',
      },
    },
    category: 'frontmatter',
    reads: ['agents'],
    description: 'Require the frontmatter of an agent file to be valid YAML, as a strict loader reads it',
    scope: 'project',
    reference: 'new',
    messages: {
      invalid: {
        message: 'The frontmatter of agent `{agent}` is not valid YAML: {error}',
        help: '{lenient}Quote the value (`description: "…"`) or write it as a block (`description: >-` and the text indented below).',
      },
    },
  },
  check({ project, report }) {
    for (const agent of project.agents) {
      const error = agent.frontmatter?.error;
      if (error === undefined) continue;
      // read anyway by every loader of the file: Claude Code by its second reading, OpenCode by its fallback
      const reads = (loader: string) =>
        (loader === 'claude-code' && error.claudeCodeQuotes !== undefined) || (loader === 'opencode' && agent.lenient);
      const readers = [...agent.loaders.targets, ...agent.loaders.alsoReadBy];
      if (readers.length > 0 && readers.every(reads)) continue;
      report({
        messageId: 'invalid',
        data: {
          agent: agent.name,
          error: error.message,
          lenient:
            agent.lenient && [...agent.loaders.targets, ...agent.loaders.alsoReadBy].includes('opencode')
              ? 'OpenCode reads it anyway (it quotes a plain value holding `: `); a strict YAML loader does not. '
              : '',
        },
        at: { file: agent.file, line: error.line, column: error.column },
      });
    }
  },
});
