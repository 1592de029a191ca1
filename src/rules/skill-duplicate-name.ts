import { defineRule } from '../engine/rule.js';
import type { Skill } from '../model/types.js';
import { namePlace } from './lib/skill-places.js';

export default defineRule({
  meta: {
    code: 'skill-duplicate-name',
    defaultSeverity: 'error',
    category: 'naming',
    description: 'Disallow two skills with the same name',
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
    const firstByName = new Map<string, Skill>();
    for (const skill of project.skills) {
      const first = firstByName.get(skill.name);
      if (first === undefined) {
        firstByName.set(skill.name, skill);
        continue;
      }
      report({
        messageId: 'duplicate',
        data: { name: skill.name, other: first.dir },
        at: { file: skill.skillFile.path, ...namePlace(skill) },
        skill: skill.name,
        related: [{ message: `first skill named '${skill.name}'`, file: first.skillFile.path, ...namePlace(first) }],
      });
    }
  },
});
