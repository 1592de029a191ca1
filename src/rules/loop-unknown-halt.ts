import { defineRule, forEachSkill } from '../engine/rule.js';
import { didYouMean } from '../util/closest.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'loop-unknown-halt',
    aliases: ['loop-unknown-halt-reason'],
    defaultSeverity: 'warning',
    certainty: 'definite',
    loaders: EVERY,
    category: 'language',
    reads: ['frontmatter', 'loop'],
    local: true,
    description: 'Require every `halt <reason>` directive in LOOP.md to use a reason listed in halt_reasons',
    scope: 'skill',
    reference: 'improved',
    messages: {
      unknown: {
        message: "Unknown halt reason '{reason}' in LOOP.md for `{skill}` at line {line}{suggestion}",
        help: 'Standard halt reasons: {reasons}. Use exactly one of these.',
      },
    },
  },
  check({ project, config, report }) {
    const known = new Set(config.halt_reasons.map((r) => r.toLowerCase()));
    const reasons = config.halt_reasons.length > 0 ? config.halt_reasons.join(', ') : '(none configured)';
    forEachSkill(project, (skill) => {
      const loop = skill.loop;
      if (!loop) return;
      for (const m of loop.halts) {
        if (!m.directive || known.has(m.word.toLowerCase())) continue;
        report({
          messageId: 'unknown',
          data: {
            reason: m.word,
            skill: skill.name,
            line: m.line,
            reasons,
            suggestion: didYouMean(m.word, config.halt_reasons),
          },
          at: { file: loop.file.path, line: m.line, column: m.column },
          skill: skill.name,
        });
      }
    });
  },
});
