import { defineRule } from '../engine/rule.js';
import { markdownFiles } from '../model/files.js';
import { didYouMean } from '../util/closest.js';
import { EVERY } from './lib/loaders.js';

/** A suppression comment that names a code loopkit does not have silences nothing. */
export default defineRule({
  meta: {
    code: 'suppression-unknown-code',
    defaultSeverity: 'warning',
    certainty: 'definite',
    loaders: EVERY,
    category: 'config',
    reads: ['body', 'loop', 'references', 'files'],
    description: 'Require suppression comments to name existing diagnostic codes',
    scope: 'project',
    reference: 'new',
    messages: {
      unknown: {
        message: "Suppression comment names unknown code '{code}'{suggestion}",
        help: 'A suppression comment silences only the codes it names; this one silences nothing for {code}. Codes are listed in docs/rules/.',
      },
    },
  },
  check({ project, knownCodes, report }) {
    for (const file of markdownFiles(project)) {
      for (const s of file.suppressions ?? []) {
        for (const code of s.codes) {
          if (knownCodes.has(code)) continue;
          report({
            messageId: 'unknown',
            data: { code, suggestion: didYouMean(code, [...knownCodes]) },
            at: { file: file.path, line: s.line, column: s.column },
          });
        }
      }
    }
  },
});
