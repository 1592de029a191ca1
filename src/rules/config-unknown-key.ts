import { CONFIG_FILE } from '../config/errors.js';
import { defineRule } from '../engine/rule.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'config-unknown-key',
    defaultSeverity: 'warning',
    certainty: 'definite',
    loaders: EVERY,
    category: 'config',
    reads: [],
    description: 'Disallow top-level keys in .loopkit.yaml that loopkit does not know',
    scope: 'project',
    reference: 'new',
    messages: {
      unknown: { message: '{message}', help: '{help}' },
    },
  },
  check({ project, report }) {
    const file = project.configFile ?? CONFIG_FILE;
    for (const w of project.configWarnings) {
      report({
        messageId: 'unknown',
        data: { message: w.message, help: w.help },
        at: { file, line: w.line, column: w.column },
      });
    }
  },
});
