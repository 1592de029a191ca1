import { defineRule } from '../engine/rule.js';
import { nameClass, type NameClass } from '../util/naming.js';
import { chosenName } from './lib/name-advice.js';
import { namePlace } from './lib/skill-places.js';

const CLASSES: readonly NameClass[] = ['gerund', 'noun', 'action-prefix'];

export default defineRule({
  meta: {
    code: 'skill-naming-inconsistent',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'naming',
    reads: ['frontmatter'],
    description: 'Require all skill names of a project to follow one naming pattern',
    scope: 'project',
    reference: 'improved',
    messages: {
      mixed: {
        message:
          'Project has mixed naming patterns: {gerund} gerund, {noun} noun, {action} action-prefix names. Consider using a consistent convention.',
        help: 'Most skills here use {convention} names (on a tie, gerund: the Loop Language names skills verb-ing first, e.g. `writing-stories`). Not following it: {outliers}.',
      },
    },
  },
  check({ project, report }) {
    // a root skill without a name of its own is named after its checkout folder: no choice to judge
    const named = project.skills.filter((skill) => chosenName(skill) !== null);
    if (named.length < 2) return;
    const classified = named.map((skill) => ({ skill, cls: nameClass(skill.name) }));
    const count = (c: NameClass) => classified.filter((x) => x.cls === c).length;
    const counts = new Map(CLASSES.map((c) => [c, count(c)] as const));
    if (CLASSES.filter((c) => counts.get(c)! > 0).length < 2) return;
    // the majority class; on a tie the Loop Language's own convention (gerund) wins
    const top = Math.max(...counts.values());
    const leaders = CLASSES.filter((c) => counts.get(c) === top);
    const convention: NameClass = leaders.length === 1 ? leaders[0]! : 'gerund';
    const outliers = classified.filter((x) => x.cls !== convention);
    const [first, ...rest] = outliers;
    if (!first) return;
    report({
      messageId: 'mixed',
      data: {
        gerund: counts.get('gerund')!,
        noun: counts.get('noun')!,
        action: counts.get('action-prefix')!,
        convention,
        outliers: outliers.map((x) => `\`${x.skill.name}\``).join(', '),
      },
      at: { file: first.skill.skillFile.path, ...namePlace(first.skill) },
      skill: first.skill.name,
      related: rest.map((x) => ({
        message: `also not a ${convention} name: \`${x.skill.name}\` (${x.cls})`,
        file: x.skill.skillFile.path,
        ...namePlace(x.skill),
      })),
    });
  },
});
