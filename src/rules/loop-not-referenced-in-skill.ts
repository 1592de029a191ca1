import type { Definition, Link } from 'mdast';
import { defineRule } from '../engine/rule.js';
import type { Skill } from '../model/types.js';
import { bodyStartOffset, bodyStartPlace } from '../util/skill-places.js';
import { skillSections } from '../util/skill-sections.js';
import { visit } from '../util/visit.js';

/** `LOOP.md` (or `./LOOP.md`) as a whole token: not part of `MY-LOOP.md`, `x/LOOP.md` or `LOOP.mdx`. */
const MENTION = /(?<![\w./\\-])(?:\.\/)?LOOP\.md(?![\w-])/u;

/** A link or link definition in the body whose target is the skill's own LOOP.md. */
function linksToLoop(skill: Skill): boolean {
  if (!skill.skillFile.root) return false;
  let found = false;
  visit(skill.skillFile.root, null, (n) => {
    if (found || (n.type !== 'link' && n.type !== 'definition')) return;
    const target = (n as Link | Definition).url.replace(/[?#].*$/u, '');
    if (target === 'LOOP.md' || target === './LOOP.md') found = true;
  });
  return found;
}

export default defineRule({
  meta: {
    code: 'loop-not-referenced-in-skill',
    defaultSeverity: 'error',
    category: 'completeness',
    description: 'Require the body of SKILL.md to reference the skill\'s LOOP.md',
    scope: 'skill',
    reference: 'improved',
    messages: {
      unreferenced: {
        message: 'Skill `{skill}` has a LOOP.md but SKILL.md does not reference it',
        help: "Add a reference to LOOP.md in SKILL.md, e.g. 'For the full state machine contract, see [LOOP.md](LOOP.md).'",
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      if (skill.loop === null) continue;
      if (linksToLoop(skill) || MENTION.test(skill.skillFile.text.slice(bodyStartOffset(skill)))) continue;
      // where the reference belongs: the Description heading, else the start of the body
      const description = skillSections(skill, 'Description')[0];
      const at = description ? { line: description.line, column: description.column } : bodyStartPlace(skill);
      report({
        messageId: 'unreferenced',
        data: { skill: skill.name },
        at: { file: skill.skillFile.path, ...at },
        skill: skill.name,
      });
    }
  },
});
