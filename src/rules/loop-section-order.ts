import { defineRule, forEachSkill } from '../engine/rule.js';
import type { Section } from '../model/types.js';
import { reorderSectionsEdit } from './lib/fix-sections.js';
import { canonicalLoopSections } from './lib/loop-sections.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'loop-section-order',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'sections',
    reads: ['frontmatter', 'loop'],
    local: true,
    description: 'Require the canonical sections of LOOP.md to appear in the order of canonical_loop_sections',
    scope: 'skill',
    reference: 'improved',
    fixable: true,
    messages: {
      order: {
        message: 'LOOP.md for `{skill}` has sections in non-canonical order',
        help: 'Canonical order: {order}',
      },
    },
  },
  check({ project, config, report }) {
    const canonical = canonicalLoopSections(config);
    const indexOf = new Map(canonical.map((c) => [c.key, c.index]));
    const order = canonical.map((c) => c.name).join(' -> ');
    forEachSkill(project, (skill) => {
      const loop = skill.loop;
      if (!loop) return;
      let highest: { section: Section; index: number } | null = null;
      for (const s of loop.sections) {
        const index = indexOf.get(s.key);
        if (index === undefined) continue;
        if (highest && index < highest.index) {
          const after = highest.section;
          report({
            messageId: 'order',
            data: { skill: skill.name, order },
            at: { file: loop.file.path, line: s.line, column: s.column },
            skill: skill.name,
            related: [
              {
                message: `'## ${after.title}' comes first, but '## ${s.title}' belongs before it`,
                file: loop.file.path,
                line: after.line,
                column: after.column,
              },
            ],
          });
          return;
        }
        if (!highest || index > highest.index) highest = { section: s, index };
      }
    });
  },
  // --fix: the canonical sections (each with the unknown sections that follow it) into canonical order
  fix: {
    kinds: ['loop'],
    fix({ file, facts, config }) {
      const indexOf = new Map(canonicalLoopSections(config).map((c) => [c.key, c.index]));
      return reorderSectionsEdit(file, facts.loop?.sections ?? [], (key) => indexOf.get(key));
    },
  },
});
