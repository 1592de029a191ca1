import { defineRule } from '../engine/rule.js';

export default defineRule({
  meta: {
    code: 'skill-read-error',
    defaultSeverity: 'error',
    certainty: 'definite',
    category: 'discovery',
    description: 'Require every SKILL.md and LOOP.md of a skill to be readable UTF-8 text',
    scope: 'project',
    reference: 'improved',
    messages: {
      unreadable: {
        message: '{message}',
        help: 'Make the file a readable UTF-8 text file; loopkit cannot check what it cannot read.',
      },
    },
  },
  check({ project, report }) {
    for (const p of project.problems) {
      if (p.code !== 'skill-read-error') continue;
      report({ messageId: 'unreadable', data: { message: p.message }, at: { file: p.file, line: null } });
    }
  },
});
