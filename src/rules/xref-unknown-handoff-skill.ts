import { defineRule, forEachSkill } from '../engine/rule.js';
import { similarName } from '../util/closest.js';
import { EVERY } from './lib/loaders.js';

/** Handoff targets that name no skill: the story is finished, or every agent is addressed. */
const SPECIAL_TARGETS = new Set(['done', 'all-agents']);

export default defineRule({
  meta: {
    code: 'xref-unknown-handoff-skill',
    defaultSeverity: 'warning',
    certainty: 'definite',
    loaders: EVERY,
    category: 'cross-references',
    reads: ['frontmatter', 'loop'],
    description: 'Check that `handoff <skill> to <agent>` lines outside transition rules name a skill of the project',
    scope: 'skill',
    reference: 'improved',
    messages: {
      unknown: {
        message: 'LOOP.md for `{skill}` references unknown skill `{target}` at line {line}{suggestion}',
        help: 'Skill `{target}` must exist in the skills directory.',
      },
    },
  },
  check({ project, report }) {
    const names = project.skills.map((s) => s.name);
    const known = new Set(names);
    forEachSkill(project, (skill) => {
      const loop = skill.loop;
      if (!loop) return;
      // handoff directives attached to a transition are checked by constraints-unknown-handoff-target
      let attached: Set<number> | undefined;
      for (const h of loop.handoffs) {
        if (SPECIAL_TARGETS.has(h.skill) || known.has(h.skill)) continue;
        attached ??= new Set(loop.transitions.flatMap((t) => (t.handoff ? [t.handoff.line] : [])));
        if (attached.has(h.line)) continue;
        report({
          messageId: 'unknown',
          data: {
            skill: skill.name,
            target: h.skill,
            line: h.line,
            suggestion: ((like) => (like === undefined ? '' : `; did you mean \`${like}\`?`))(similarName(h.skill, names)),
          },
          at: { file: loop.file.path, line: h.line, column: h.column },
          skill: skill.name,
        });
      }
    });
  },
});
