import { defineRule, forEachSkill } from '../engine/rule.js';
import { insertSectionsEdits } from './lib/fix-sections.js';
import { canonicalLoopSections } from './lib/loop-sections.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'loop-missing-section',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'sections',
    reads: ['frontmatter', 'loop'],
    local: true,
    description: 'Require every section of canonical_loop_sections as an H2 heading in LOOP.md',
    scope: 'skill',
    reference: 'improved',
    fixable: true,
    messages: {
      missing: {
        message: "LOOP.md for `{skill}` is missing required section '## {section}'",
        help: "Add '## {section}' section to LOOP.md{where}. All {count} canonical sections are required.",
      },
    },
  },
  check({ project, config, report }) {
    const canonical = canonicalLoopSections(config);
    const indexOf = new Map(canonical.map((c) => [c.key, c.index]));
    forEachSkill(project, (skill) => {
      const loop = skill.loop;
      if (!loop) return;
      const present = new Set(loop.sections.map((s) => s.key));
      // where a section goes when it is appended: the last line with text (line 1 of an empty file)
      for (const c of canonical) {
        if (present.has(c.key)) continue;
        // it belongs before the first heading of a later canonical section, else at the end
        const before = loop.sections.find((s) => (indexOf.get(s.key) ?? -1) > c.index);
        report({
          messageId: 'missing',
          data: {
            skill: skill.name,
            section: c.name,
            where: before ? ` before '## ${before.title}'` : ' at the end of the file',
            count: canonical.length,
          },
          at: before
            ? { file: loop.file.path, line: before.line, column: before.column }
            : { file: loop.file.path, line: loop.lastTextLine, column: 1 },
          skill: skill.name,
          element: `missing section ${c.name}`,
        });
      }
    });
  },
  // --fix: each missing section as a placeholder heading where it belongs
  fix: {
    kinds: ['loop'],
    fix({ file, facts, config, problems }) {
      const canonical = canonicalLoopSections(config);
      const indexOf = new Map(canonical.map((c) => [c.key, c.index]));
      const sections = facts.loop?.sections ?? [];
      const present = new Set(sections.map((s) => s.key));
      const reported = new Set(problems.map((p) => String(p.data.section)));
      const missing = canonical.filter((c) => !present.has(c.key) && reported.has(c.name));
      return insertSectionsEdits(file, sections, missing, (key) => indexOf.get(key));
    },
  },
});
