// The rule's cases, run by loopkit's rule tester under node:test (`npm test`).
import { RuleTester } from 'loopkit/testing';
import plugin from '../index.mjs';

const skill = (frontmatter) =>
  `---\nname: writing-notes\ndescription: Writes notes. Use when asked to take notes.\n${frontmatter}---\n\n# Writing notes\n\nWrite the note.\n`;

// the problem, as reported at the frontmatter's first line
const noOwner = {
  file: 'skills/writing-notes/SKILL.md',
  line: 1,
  column: 1,
  severity: 'warning',
  message: "Skill 'writing-notes' names no owner (metadata.owner)",
};

new RuleTester().run('example/skill-owner-required', plugin.rules['skill-owner-required'], {
  valid: [{ name: 'an owner in metadata', files: { 'skills/writing-notes/SKILL.md': skill('metadata:\n  owner: docs-team\n') } }],
  invalid: [
    {
      name: 'no metadata',
      files: { 'skills/writing-notes/SKILL.md': skill('') },
      errors: [noOwner],
    },
    {
      name: 'metadata without an owner',
      files: { 'skills/writing-notes/SKILL.md': skill('metadata:\n  version: "1.0"\n') },
      errors: [noOwner],
    },
    {
      name: 'an empty owner, as an error where the project says so',
      files: {
        '.loopkit.yaml': 'rules:\n  example/skill-owner-required: error\n',
        'skills/writing-notes/SKILL.md': skill('metadata:\n  owner: ""\n'),
      },
      errors: [{ file: 'skills/writing-notes/SKILL.md', line: 1, column: 1, severity: 'error', message: /names no owner/ }],
    },
  ],
});
