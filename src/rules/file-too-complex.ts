import { defineRule } from '../engine/rule.js';
import { markdownFiles } from '../model/files.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'file-too-complex',
    defaultSeverity: 'warning',
    certainty: 'definite',
    loaders: EVERY,
    category: 'discovery',
    reads: ['body', 'loop', 'references', 'files'],
    description: 'Report a markdown file whose structure is too complex to parse in bounded time (it is then not analysed)',
    scope: 'project',
    reference: 'new',
    messages: {
      tooComplex: {
        message:
          '{file} is too complex to analyse: {measure} {construct} (the limit is {limit}); only its frontmatter and DSL lines were read',
        help: 'Such a file also confuses agents. Split the paragraph or list, or remove the nesting; the limits are in docs/rules/file-too-complex.md.',
      },
    },
  },
  check({ project, report }) {
    for (const file of markdownFiles(project)) {
      const c = file.tooComplex;
      if (!c) continue;
      const name = file.path.split('/').pop()!;
      report({
        messageId: 'tooComplex',
        data: { file: name, construct: c.construct, measure: c.measure, limit: c.limit },
        at: { file: file.path, line: c.line, column: 1 },
      });
    }
  },
});
