import { defineRule } from '../engine/rule.js';
import { TRANSITION_SECTION_KEY } from './lib/loop-sections.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'constraints-empty-graph',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'constraints',
    reads: ['loop', 'graph'],
    description: 'Require at least one transition in the combined graph of the project',
    scope: 'project',
    reference: 'improved',
    messages: {
      empty: {
        message: 'No transitions found. No transition rules defined in any LOOP.md.',
        help: 'Add transition rules to at least one LOOP.md file using: transition <from> -> <to>',
      },
    },
  },
  check({ project, graph, report }) {
    if (graph.edges.length > 0) return;
    // an empty State Transition Rule section is loop-no-transitions' (one mistake, one report)
    const loops = project.skills.flatMap((s) => (s.loop ? [s.loop] : []));
    if (loops.some((l) => l.sections.some((s) => s.key === TRANSITION_SECTION_KEY))) return;
    // the first LOOP.md is where a transition belongs; without one, the skills directory
    const loop = loops[0];
    if (loop) {
      report({ messageId: 'empty', at: { file: loop.file.path, line: 1, column: 1 } });
    } else {
      report({ messageId: 'empty', at: { file: project.skillsDir } });
    }
  },
});
