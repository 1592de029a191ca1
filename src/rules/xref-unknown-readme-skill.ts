import type { InlineCode, Text } from 'mdast';
import { defineRule } from '../engine/rule.js';
import { toString } from 'mdast-util-to-string';
import { similarName } from '../util/closest.js';
import { sectionKey } from '../util/text.js';
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

interface Token {
  token: string;
  line: number;
  column: number;
  /** index of the top-level list or table that holds it (-1: none) */
  block: number;
  /** the heading the block is under (normalised), '' before the first */
  section: string;
  /** written as the wrong form: "`running-x`, not `x`", "instead of `x`" */
  counter: boolean;
}

/** Text that, right before a name, says the name is the wrong one. */
const COUNTER = /\b(?:not|never|avoid|instead of|rather than)[\s,:;(]*$/iu;

export default defineRule({
  meta: {
    code: 'xref-unknown-readme-skill',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'cross-references',
    reads: ['frontmatter', 'graph', 'files'],
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
    // every backticked kebab-case word, with the block and the section it is in
    check({ file }) {
      const out: Token[] = [];
      if (!file.root) return out;
      let section = '';
      file.root.children.forEach((node, index) => {
        if (node.type === 'heading') section = sectionKey(toString(node));
        const block = node.type === 'list' || node.type === 'table' ? index : -1;
        visit(node, 'inlineCode', (n, parent) => {
          const code = n as InlineCode;
          const token = code.value.trim();
          if (!KEBAB.test(token) || EXCEPTIONS.has(token) || token.endsWith('-agent') || token.startsWith('story-')) return;
          const before = parent?.children[parent.children.indexOf(code) - 1];
          const counter = before?.type === 'text' && COUNTER.test((before as Text).value);
          out.push({ token, line: code.position?.start.line ?? 1, column: code.position?.start.column ?? 1, block, section, counter });
        });
      });
      return out;
    },
  },
  check({ project, graph, config, fileData, report }) {
    const readme = project.readme;
    if (!readme) return;
    const names = project.skills.map((s) => s.name);
    const known = new Set(names);
    const notSkills = new Set([
      ...config.enforced_states.map((s) => s.name),
      ...config.halt_reasons.map((r) => `halted-${r}`),
      ...graph.states,
    ]);
    const tokens = fileData(readme.path) ?? [];
    // lists and tables of skills: at least half of the names they hold are real skills (a table of
    // rule codes that gives one skill name as an example is not one)
    const blockNames = new Map<number, { known: Set<string>; all: Set<string> }>();
    for (const t of tokens) {
      if (t.block < 0 || notSkills.has(t.token)) continue;
      const b = blockNames.get(t.block) ?? { known: new Set<string>(), all: new Set<string>() };
      blockNames.set(t.block, b);
      b.all.add(t.token);
      if (known.has(t.token)) b.known.add(t.token);
    }
    const skillBlocks = new Set(
      [...blockNames].filter(([, b]) => b.known.size > 0 && b.known.size * 2 >= b.all.size).map(([block]) => block),
    );
    for (const t of tokens) {
      if (known.has(t.token) || notSkills.has(t.token) || t.counter) continue;
      // a skill by meaning: like a skill's name, next to real skill names, or under a "skills" heading
      const like = similarName(t.token, names);
      if (like === undefined && !skillBlocks.has(t.block) && !/\bskills?\b/u.test(t.section)) continue;
      report({
        messageId: 'unknown',
        data: { token: t.token, line: t.line, suggestion: like === undefined ? '' : `; did you mean \`${like}\`?` },
        at: { file: readme.path, line: t.line, column: t.column },
      });
    }
  },
});
