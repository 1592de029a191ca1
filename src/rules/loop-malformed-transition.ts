import { defineRule, forEachSkill } from '../engine/rule.js';
import type { MalformedLine } from '../model/types.js';
import { EVERY } from './lib/loaders.js';

const SYNTAX: Record<MalformedLine['kind'], string> = {
  transition: 'transition <from> → <to> (the arrow may be →, -> or --->; states may be backtick-quoted; nothing after the target state)',
  trigger: 'trigger <condition> (on a line after its transition, in the same section)',
  handoff: 'handoff <skill> to <agent> (one skill name and one agent name, nothing else)',
  halt: 'halt <reason> or halt <reason> after <N> iterations (N a whole number)',
};

export default defineRule({
  meta: {
    code: 'loop-malformed-transition',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'language',
    reads: ['frontmatter', 'loop'],
    local: true,
    description: 'Disallow transition, trigger, handoff and halt lines in LOOP.md that do not parse',
    scope: 'skill',
    reference: 'new',
    messages: {
      malformed: {
        message: 'Malformed {kind} line in LOOP.md for `{skill}`: {reason}',
        help: 'Write it as: {syntax}',
      },
    },
  },
  check({ project, report }) {
    forEachSkill(project, (skill) => {
      const loop = skill.loop;
      if (!loop) return;
      for (const m of loop.malformed) {
        report({
          messageId: 'malformed',
          data: { kind: m.kind, skill: skill.name, reason: m.reason, syntax: SYNTAX[m.kind] },
          at: { file: loop.file.path, line: m.line, column: m.column },
          skill: skill.name,
        });
      }
    });
  },
});
