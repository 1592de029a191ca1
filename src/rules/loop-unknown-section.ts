import { defineRule, forEachSkill } from '../engine/rule.js';
import { canonicalLoopSections } from './lib/loop-sections.js';
import { closest } from '../util/closest.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'loop-unknown-section',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'sections',
    reads: ['frontmatter', 'loop'],
    local: true,
    description: 'Disallow H2 sections in LOOP.md that are not listed in canonical_loop_sections',
    scope: 'skill',
    reference: 'improved',
    messages: {
      unknown: {
        message: "LOOP.md for `{skill}` has unknown section '## {title}'{suggestion}; use only the {count} canonical headings.",
        help: 'Only these {count} headings are valid: {headings}',
      },
    },
  },
  check({ project, config, report }) {
    const canonical = canonicalLoopSections(config);
    const keys = new Set(canonical.map((c) => c.key));
    const names = canonical.map((c) => c.name);
    // an empty canonical_loop_sections switches the section checks off
    if (canonical.length === 0) return;
    forEachSkill(project, (skill) => {
      const loop = skill.loop;
      if (!loop) return;
      for (const s of loop.sections) {
        if (keys.has(s.key)) continue;
        const guess = closest(s.title, names);
        report({
          messageId: 'unknown',
          data: {
            skill: skill.name,
            title: s.title,
            suggestion: guess ? ` (did you mean '## ${guess}'?)` : '',
            count: canonical.length,
            headings: names.join(', '),
          },
          at: { file: loop.file.path, line: s.line, column: s.column },
          skill: skill.name,
        });
      }
    });
  },
});
