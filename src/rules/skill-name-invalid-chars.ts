import { defineRule } from '../engine/rule.js';
import { namespacedName } from '../util/naming.js';
import { entryPlace } from './lib/frontmatter-fields.js';
import { nameAdvice, writtenName } from './lib/name-advice.js';
import { NAME_CHARACTERS } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-name-invalid-chars',
    defaultSeverity: 'error',
    certainty: 'definite',
    subject: 'name',
    loaders: NAME_CHARACTERS,
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Require the frontmatter name to use only lower-case letters, digits and hyphens',
    scope: 'skill',
    reference: 'improved',
    messages: {
      invalid: {
        message: "name '{name}' contains invalid characters (only [a-z0-9-] allowed)",
        help: 'Not allowed: {chars}. Use lower-case kebab-case: {advice}.',
      },
      namespaced: {
        message: "name '{name}' contains invalid characters (only [a-z0-9-] allowed): '{namespace}:' is a namespace, not part of the name",
        help: 'A client adds the namespace of a plugin itself (`/{namespace}:{bare}`); {advice}.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      // a value that is no text (a list, a number) is skill-missing-name's
      const field = writtenName(skill);
      if (!field) continue;
      const name = field.text;
      if (/^[a-z0-9-]+$/u.test(name)) continue;
      const at = entryPlace(skill, field.entry);
      const advice = nameAdvice(name, skill);
      const ns = namespacedName(name);
      if (ns && /^[a-z0-9-]+$/u.test(ns.name)) {
        report({ messageId: 'namespaced', data: { name, namespace: ns.namespace, bare: ns.name, advice }, at, skill: skill.name });
        continue;
      }
      const bad = [...new Set(Array.from(name).filter((ch) => !/[a-z0-9-]/u.test(ch)))];
      const chars = bad.map((ch) => (ch === ' ' ? 'spaces' : `'${ch}'`)).join(', ');
      report({ messageId: 'invalid', data: { name, chars, advice }, at, skill: skill.name });
    }
  },
});
