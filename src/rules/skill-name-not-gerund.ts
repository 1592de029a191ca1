import { defineRule } from '../engine/rule.js';
import { isGerundName } from '../util/naming.js';
import { chosenName } from './lib/name-advice.js';
import { namePlace } from './lib/skill-places.js';

export default defineRule({
  meta: {
    code: 'skill-name-not-gerund',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'naming',
    reads: ['frontmatter'],
    local: true,
    description: 'Require skill names to start with a gerund (`writing-stories`, not `story-writer`)',
    scope: 'skill',
    reference: 'improved',
    messages: {
      notGerund: {
        message: "name '{name}' does not start with a gerund (-ing word). Consider a verb form like 'running-tests'",
        help: 'Name a skill after the activity, verb-ing first (the Loop Language convention and the Agent Skills authoring advice): `writing-stories`, `processing-pdfs`.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      // a root skill without a name of its own is named after its checkout folder: no choice to judge
      if (chosenName(skill) === null || isGerundName(skill.name)) continue;
      report({
        messageId: 'notGerund',
        data: { name: skill.name },
        at: { file: skill.skillFile.path, ...namePlace(skill) },
        skill: skill.name,
      });
    }
  },
});
