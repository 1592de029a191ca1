import { defineRule, type Place } from '../engine/rule.js';
import { configKeyPlace } from './lib/config-place.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'loop-state-file-missing',
    defaultSeverity: 'info',
    certainty: 'definite',
    loaders: EVERY,
    category: 'completeness',
    reads: ['files'],
    description: 'Check that every loop state file listed in loop_state_files exists in the project',
    scope: 'project',
    reference: 'improved',
    messages: {
      missing: {
        message: 'Loop state file `{file}` ({purpose}) is missing',
        help: 'Create `{file}` to track {purpose} state across sessions.',
      },
      missingNoPurpose: {
        message: 'Loop state file `{file}` is missing',
        help: 'Create `{file}` to track the loop state across sessions.',
      },
      outside: {
        message: 'Loop state file `{file}` is outside the project; loopkit does not look outside it',
        help: 'Keep the state file in the project and write its path relative to the project root.',
      },
    },
  },
  check({ project, config, report }) {
    const configured = project.configFile !== null && project.configPositions.has('loop_state_files');
    config.loop_state_files.forEach((f, i) => {
      if (project.existingPaths.has(f.path)) return;
      // a path the user wrote is reported where it is written; a built-in default at the path itself
      const at: Place = configured ? configKeyPlace(project, `loop_state_files.${i}.path`) : { file: f.path, line: null, column: null };
      if (project.outsidePaths.has(f.path)) {
        report({ messageId: 'outside', data: { file: f.path }, at });
        return;
      }
      const purpose = f.description.trim();
      report(
        purpose === ''
          ? { messageId: 'missingNoPurpose', data: { file: f.path }, at }
          : { messageId: 'missing', data: { file: f.path, purpose }, at },
      );
    });
  },
});
