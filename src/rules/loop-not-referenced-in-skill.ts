import type { Definition, Link } from 'mdast';
import { defineRule } from '../engine/rule.js';
import type { SourceFile } from '../model/types.js';
import { bodyStartPlace } from './lib/skill-places.js';
import { skillSections } from './lib/skill-sections.js';
import { visit } from '../util/visit.js';
import { EVERY } from './lib/loaders.js';

/** `LOOP.md` (or `./LOOP.md`) as a whole token: not part of `MY-LOOP.md`, `x/LOOP.md` or `LOOP.mdx`. */
const MENTION = /(?<![\w./\\-])(?:\.\/)?LOOP\.md(?![\w-])/u;

/** A link or link definition whose target is the skill's own LOOP.md. */
function linksToLoop(file: SourceFile): boolean {
  if (!file.root) return false;
  let found = false;
  visit(file.root, null, (n) => {
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
    certainty: 'definite',
    loaders: EVERY,
    category: 'completeness',
    reads: ['frontmatter', 'body', 'loop'],
    local: true,
    description: "Require the body of SKILL.md to reference the skill's LOOP.md",
    scope: 'skill',
    reference: 'improved',
    messages: {
      unreferenced: {
        message: 'Skill `{skill}` has a LOOP.md but SKILL.md does not reference it',
        help: "Add a reference to LOOP.md in SKILL.md, e.g. 'For the full state machine contract, see [LOOP.md](LOOP.md).'",
      },
    },
  },
  file: {
    kinds: ['skill'],
    // does SKILL.md link to LOOP.md, or name it in its body (after the frontmatter)?
    check({ file, facts }) {
      const end = facts.skill?.frontmatter?.endLine ?? null;
      const body = end === null ? 0 : (file.lineStarts[end] ?? file.text.length);
      return linksToLoop(file) || MENTION.test(file.text.slice(body));
    },
  },
  check({ project, fileData, report }) {
    for (const skill of project.skills) {
      if (skill.loop === null || fileData(skill.skillFile.path) === true) continue;
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
