import { defineRule } from '../engine/rule.js';
import { isInsideDir, shownSkillDir } from '../model/skill-dir.js';
import type { Skill } from '../model/types.js';
import { namePlace } from './lib/skill-places.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-duplicate-name',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'naming',
    reads: ['frontmatter'],
    description: 'Disallow two skills with the same name in one skills directory',
    scope: 'project',
    reference: 'new',
    messages: {
      duplicate: {
        message: "Skill name '{name}' is already used by the skill in {other}",
        help: 'Rename one of the two skills (and its directory). Handoffs and the transition graph address skills by name, so two skills with one name are ambiguous.',
      },
    },
  },
  check({ project, report }) {
    // the skills directory a skill was found in: the longest one its path starts with
    const dirs = [...project.skillsDirs].sort((a, b) => b.length - a.length);
    const home = (skill: Skill) => dirs.find((d) => isInsideDir(skill.dir, d)) ?? '';
    const firstByName = new Map<string, Skill>();
    for (const skill of project.skills) {
      // a name that is not its folder's is skill-name-mismatch-dir's (or, when its form is wrong, the
      // form rule's): their hints give the name that ends the clash too (one mistake, one report)
      if (skill.name !== skill.dirName) continue;
      // one name in two skills directories (.claude/skills and .github/skills, two plugins, a copy
      // generated for another agent) is one skill served to several places, not a clash
      const key = `${home(skill)}\u0000${skill.name}`;
      const first = firstByName.get(key);
      if (first === undefined) {
        firstByName.set(key, skill);
        continue;
      }
      report({
        messageId: 'duplicate',
        data: { name: skill.name, other: shownSkillDir(first.dir) },
        at: { file: skill.skillFile.path, ...namePlace(skill) },
        skill: skill.name,
        related: [{ message: `first skill named '${skill.name}'`, file: first.skillFile.path, ...namePlace(first) }],
      });
    }
  },
});
