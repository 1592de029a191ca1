import { defineRule } from '../engine/rule.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-read-error',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'discovery',
    reads: ['files'],
    description:
      'Require every SKILL.md and LOOP.md of a skill to be readable UTF-8 text, and every folder that may hold skills to be readable',
    scope: 'project',
    reference: 'improved',
    messages: {
      unreadable: {
        message: '{message}',
        help: 'Make it readable (a file as UTF-8 text) by the user running loopkit, or list a folder that holds no skills under ignores: in .loopkit.yaml; loopkit cannot check what it cannot read.',
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
