import { defineRule } from '../engine/rule.js';
import { valueKind } from './lib/frontmatter-fields.js';
import { nameAdvice } from './lib/name-advice.js';
import { requiredField } from './lib/loaders.js';
import { isPlaceholderValue } from '../util/text.js';

export default defineRule({
  meta: {
    code: 'skill-missing-name',
    defaultSeverity: 'error',
    certainty: 'definite',
    subject: 'name',
    loaders: requiredField('name', 'the directory name when omitted'),
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Require a non-empty `name` in the SKILL.md frontmatter',
    scope: 'skill',
    reference: 'improved',
    messages: {
      missing: {
        message: 'name field missing from frontmatter',
        help: 'Add a name to the frontmatter: {advice}. Until then loopkit names the skill after its directory `{dir}`.',
      },
      invalid: {
        message: 'name field in frontmatter must be non-empty text',
        help: 'Write the skill name after `name:`: {advice}. Until then loopkit names the skill after its directory `{dir}`.',
      },
      notText: {
        message: "name field in frontmatter must be text, not the {kind} '{value}'",
        help: 'YAML reads `{value}` as a {kind}. A name is lower-case kebab-case text: {advice}.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const fm = skill.frontmatter;
      // no, unclosed or broken frontmatter: skill-missing-frontmatter / skill-invalid-frontmatter
      if (fm === null || fm.endLine === null || fm.error) continue;
      const entry = fm.entries.find((e) => e.key === 'name');
      const file = skill.skillFile.path;
      if (entry === undefined) {
        const data = { dir: skill.dirName, advice: nameAdvice(skill.dirName, skill) };
        report({ messageId: 'missing', data, at: { file, line: fm.endLine, column: 1 }, skill: skill.name });
        continue;
      }
      if (typeof entry.value === 'string' && entry.value.trim() !== '') continue;
      // a slot of a skeleton to fill in, which YAML reads as a list or a map (`[TODO: skill-name]`, `{name}`): not
      // a value; a list of several items (`[running, a]`) is a value, of the wrong kind
      if (entry.source !== undefined && isPlaceholderValue(entry.source) && !entry.source.includes(',')) continue;
      const at = { file, line: entry.line, column: entry.column };
      // a number or a boolean: its text as written (`1.10`, not `1.1`)
      if (valueKind(entry.value) === 'scalar') {
        const value = entry.raw ?? String(entry.value);
        const kind = typeof entry.value === 'boolean' ? 'boolean' : entry.value instanceof Date ? 'date' : 'number';
        report({ messageId: 'notText', data: { kind, value, advice: nameAdvice(value, skill) }, at, skill: skill.name });
      } else {
        report({ messageId: 'invalid', data: { dir: skill.dirName, advice: nameAdvice(skill.dirName, skill) }, at, skill: skill.name });
      }
    }
  },
});
