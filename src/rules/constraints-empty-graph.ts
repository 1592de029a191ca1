import { defineRule } from '../engine/rule.js';

export default defineRule({
  meta: {
    code: 'constraints-empty-graph',
    defaultSeverity: 'error',
    certainty: 'definite',
    category: 'constraints',
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
    // the first LOOP.md is where a transition belongs; without one, the skills directory
    const loop = project.skills.find((s) => s.loop)?.loop;
    if (loop) {
      const section = loop.sections.find((s) => s.key === 'state transition rule');
      report({ messageId: 'empty', at: { file: loop.file.path, line: section?.line ?? 1, column: section?.column ?? 1 } });
    } else {
      report({ messageId: 'empty', at: { file: project.skillsDir } });
    }
  },
});
