import type { InlineCode } from 'mdast';
import { defineRule } from '../engine/rule.js';
import { isGerundName } from '../util/naming.js';
import { didYouMean } from '../util/closest.js';
import { visit } from '../util/visit.js';

/** Backticked words that are known not to be skill names (0.3.3's fixed exception list). */
const EXCEPTIONS = new Set([
  'story-id',
  'capability-slug',
  'story-123',
  'story-bs01',
  'ADR-XXX',
  'PROJ-28',
  'npm',
  'cargo',
  'dune',
  'coqc',
  'test',
  'Linear',
  'all-agents',
  'in-progress',
]);

/** Lower-case kebab-case with at least one hyphen. */
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)+$/u;

export default defineRule({
  meta: {
    code: 'xref-unknown-readme-skill',
    defaultSeverity: 'warning',
    category: 'cross-references',
    description: 'Check that skill names written as inline code in the project README.md exist',
    scope: 'project',
    reference: 'improved',
    messages: {
      unknown: {
        message: 'README.md references unknown skill `{token}` at line {line}{suggestion}',
        help: 'Skill `{token}` must exist in the skills directory or be added to known exceptions.',
      },
    },
  },
  file: {
    kinds: ['readme'],
    // the backticked names in README.md that look like skill names
    check({ file }) {
      const out: { token: string; line: number; column: number }[] = [];
      if (!file.root) return out;
      visit(file.root, 'inlineCode', (node) => {
        const code = node as InlineCode;
        const token = code.value.trim();
        if (!KEBAB.test(token) || !isGerundName(token) || EXCEPTIONS.has(token)) return;
        if (token.endsWith('-agent') || token.startsWith('story-')) return;
        out.push({ token, line: code.position?.start.line ?? 1, column: code.position?.start.column ?? 1 });
      });
      return out;
    },
  },
  check({ project, config, fileData, report }) {
    const readme = project.readme;
    if (!readme) return;
    const names = project.skills.map((s) => s.name);
    const skip = new Set([...names, ...config.enforced_states.map((s) => s.name), ...config.halt_reasons.map((r) => `halted-${r}`)]);
    for (const { token, line, column } of fileData(readme.path) ?? []) {
      if (skip.has(token)) continue;
      report({
        messageId: 'unknown',
        data: { token, line, suggestion: didYouMean(token, names, (s) => `\`${s}\``) },
        at: { file: readme.path, line, column },
      });
    }
  },
});
