import type { InlineCode } from 'mdast';
import { defineRule } from '../engine/rule.js';
import { codeBlocks } from './lib/code.js';
import { positionAt } from '../util/text.js';
import { visit } from '../util/visit.js';

/** Code block languages that are commands or programs an agent would run. */
const RUNNABLE = new Set(['bash', 'sh', 'shell', 'zsh', 'python', 'python3', 'py']);

/** Package runners that execute a tool (as a command token, not inside a word). */
const RUNNER = /(?<![\p{L}\p{N}_.-])(?:pipx\s+run|uvx|uv\s+run|npx|bunx|deno\s+run)(?=\s)/u;

export default defineRule({
  meta: {
    code: 'skill-scripts-suggested',
    defaultSeverity: 'info',
    certainty: 'heuristic',
    category: 'scripts',
    reads: ['frontmatter', 'files'],
    local: true,
    description: 'Suggest a scripts/ directory for a skill whose SKILL.md runs shell or Python code',
    scope: 'skill',
    reference: 'improved',
    messages: {
      suggested: {
        message:
          'SKILL.md references executable commands but no scripts/ directory exists. Consider bundling reusable, tested scripts for reliability',
      },
    },
  },
  file: {
    kinds: ['skill'],
    // the first command in SKILL.md; whether the skill has a scripts/ directory is the project's
    check({ file }) {
      const places: { line: number; column: number }[] = [];
      for (const block of codeBlocks(file)) {
        if (block.fenced && RUNNABLE.has(block.lang)) {
          places.push({ line: block.line, column: block.column });
          continue;
        }
        for (const l of block.lines) {
          const m = RUNNER.exec(l.text);
          if (m) {
            places.push({ line: l.line, column: l.column + m.index });
            break;
          }
        }
      }
      if (file.root) {
        visit(file.root, 'inlineCode', (n) => {
          const code = n as InlineCode;
          const start = code.position?.start.offset;
          const end = code.position?.end.offset;
          if (start === undefined || end === undefined) return;
          const raw = file.text.slice(start, end);
          const m = RUNNER.exec(raw);
          if (m) places.push(positionAt(file.lineStarts, start + m.index));
        });
      }
      return places.sort((a, b) => a.line - b.line || a.column - b.column)[0];
    },
  },
  check({ project, fileData, report }) {
    for (const skill of project.skills) {
      const first = fileData(skill.skillFile.path);
      if (skill.scripts !== null || !first) continue;
      report({ messageId: 'suggested', at: { file: skill.skillFile.path, ...first }, skill: skill.name });
    }
  },
});
