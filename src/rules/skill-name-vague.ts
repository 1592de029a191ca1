import { defineRule } from '../engine/rule.js';
import { entryPlace, nameField } from './lib/frontmatter-fields.js';

/** Each vague term with the whole words that count as it. */
const VAGUE: readonly (readonly [string, readonly string[]])[] = [
  ['helper', ['helper', 'helpers']],
  ['utils', ['utils', 'util']],
  ['tools', ['tools']],
  ['misc', ['misc']],
];

export default defineRule({
  meta: {
    code: 'skill-name-vague',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'naming',
    description: 'Disallow vague words (helper, utils, tools, misc) in the frontmatter name',
    scope: 'skill',
    reference: 'improved',
    messages: {
      vague: {
        message: "name '{name}' contains vague term '{term}'. Use a specific, descriptive name",
        help: 'Agents pick skills by name and description; say what the skill does, e.g. `formatting-changelogs`.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const name = nameField(skill);
      if (!name) continue;
      // whole words: split at anything but letters/digits and at camelCase humps
      const words = new Set(
        name.text
          .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u),
      );
      // the vague word is the subject when two or more other words say what it is about
      // (`akka-agent-tools`, `security-scanning-tools`); `git-helper` and `utils` say nothing more
      const vagueForms = new Set(VAGUE.flatMap(([, forms]) => forms));
      if ([...words].filter((w) => w !== '' && !vagueForms.has(w)).length >= 2) continue;
      for (const [term, forms] of VAGUE) {
        if (!forms.some((w) => words.has(w))) continue;
        report({ messageId: 'vague', data: { name: name.text, term }, at: entryPlace(skill, name.entry), skill: skill.name });
      }
    }
  },
});
