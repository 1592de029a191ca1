import { defineRule } from '../engine/rule.js';
import { entryPlace, frontmatterField } from './lib/frontmatter-fields.js';

/** `My_Skill` → `my-skill`, `Café Tools` → `cafe-tools` (falls back to `running-tests`). */
function kebab(name: string): string {
  const k = name
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1-$2')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-+|-+$/gu, '');
  return k === '' ? 'running-tests' : k;
}

export default defineRule({
  meta: {
    code: 'skill-name-invalid-chars',
    defaultSeverity: 'error',
    certainty: 'definite',
    category: 'frontmatter',
    description: 'Require the frontmatter name to use only lower-case letters, digits and hyphens',
    scope: 'skill',
    reference: 'improved',
    messages: {
      invalid: {
        message: "name '{name}' contains invalid characters (only [a-z0-9-] allowed)",
        help: 'Not allowed: {chars}. Use lower-case kebab-case, e.g. `{suggestion}`.',
      },
      notScalar: {
        message: 'name must be a single lower-case kebab-case word, not a {kind}',
        help: 'Write the name as one string, e.g. `name: {dir}`.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const field = frontmatterField(skill, 'name');
      if (!field) continue;
      if (field.kind === 'list' || field.kind === 'map') {
        report({
          messageId: 'notScalar',
          data: { kind: field.kind, dir: skill.dirName },
          at: entryPlace(skill, field.entry),
          skill: skill.name,
        });
        continue;
      }
      const name = field.text;
      if (name === null || name === '' || /^[a-z0-9-]+$/u.test(name)) continue;
      const bad = [...new Set(Array.from(name).filter((ch) => !/[a-z0-9-]/u.test(ch)))];
      report({
        messageId: 'invalid',
        data: { name, chars: bad.map((ch) => `'${ch}'`).join(', '), suggestion: kebab(name) },
        at: entryPlace(skill, field.entry),
        skill: skill.name,
      });
    }
  },
});
